import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readFileSync } from 'node:fs';
const t=new StdioClientTransport({command:process.execPath,args:[...(process.env.FLAGS?process.env.FLAGS.split(' '):[]),'dist/cli.js','stdio'],env:{PATH:process.env.PATH,SVC_API_KEY:'sandbox-enterprise',SVC_BASE_URL:'http://127.0.0.1:8798'},stderr:'ignore'});
const c=new Client({name:'x',version:'1'}); await c.connect(t);
const rss=()=>(Number(readFileSync(`/proc/${t.pid}/status`,'utf8').match(/VmRSS:\s+(\d+)/)[1])/1024).toFixed(1);
const out=[rss()];
const s=performance.now();
for(let k=0;k<10;k++){for(let i=0;i<500;i++) await c.callTool({name:'get_fear_and_greed_latest',arguments:{}}); out.push(rss());}
console.log(out.join(' '), ((performance.now()-s)/2000).toFixed(3),'ms/call');
await c.close();
