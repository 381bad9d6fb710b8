/**
 * The sandbox's cryptocurrencies: real names, symbols, slugs and (where known) the real service's ids.
 * Prices and supplies are plausible figures at the model's reference date (2026-11-01); the model
 * moves them from there. One asset per line, `|`-separated, parsed once by assets.ts:
 *
 *   id | name | symbol | slug | platform slug or - (a coin) | price USD | circulating | max or - |
 *   date added | peg | tags
 *
 * peg: `-` floats freely; `s` a US-dollar stablecoin; `g` tracks gold; `w:<id>[:<ratio>]` a wrapped
 * or staked form of asset <id>, priced as that asset times the ratio.
 */
export const ASSET_TABLE = `
1|Bitcoin|BTC|bitcoin|-|95000|19950000|21000000|2013-04-28|-|mineable,pow,layer-1,store-of-value
1027|Ethereum|ETH|ethereum|-|3400|120700000|-|2015-08-07|-|pos,smart-contracts,layer-1
825|Tether USDt|USDT|tether|ethereum|1|185000000000|-|2015-02-25|s|stablecoin,payments
52|XRP|XRP|xrp|-|2.3|60000000000|100000000000|2013-08-04|-|payments,layer-1
1839|BNB|BNB|bnb|-|900|139000000|200000000|2017-07-25|-|exchange-token,layer-1,smart-contracts
5426|Solana|SOL|solana|-|180|560000000|-|2020-04-10|-|pos,layer-1,smart-contracts
3408|USDC|USDC|usd-coin|ethereum|1|75000000000|-|2018-10-08|s|stablecoin,payments
74|Dogecoin|DOGE|dogecoin|-|0.2|150000000000|-|2013-12-15|-|mineable,pow,meme
1958|TRON|TRX|tron|-|0.3|95000000000|-|2017-09-13|-|layer-1,smart-contracts
2010|Cardano|ADA|cardano|-|0.7|36000000000|45000000000|2017-10-01|-|pos,layer-1,smart-contracts
32196|Hyperliquid|HYPE|hyperliquid|-|40|335000000|1000000000|2024-11-29|-|layer-1,defi,dex
1975|Chainlink|LINK|chainlink|ethereum|18|678000000|1000000000|2017-09-20|-|oracle,defi
512|Stellar|XLM|stellar|-|0.35|31000000000|50001806812|2014-08-05|-|payments,layer-1
20947|Sui|SUI|sui|-|3.5|3500000000|10000000000|2023-05-03|-|layer-1,smart-contracts
1831|Bitcoin Cash|BCH|bitcoin-cash|-|480|19900000|21000000|2017-07-23|-|mineable,pow,payments
4642|Hedera|HBAR|hedera|-|0.22|42000000000|50000000000|2019-09-17|-|layer-1,enterprise
5805|Avalanche|AVAX|avalanche|-|30|420000000|715748719|2020-07-13|-|layer-1,smart-contracts
2|Litecoin|LTC|litecoin|-|100|76000000|84000000|2013-04-28|-|mineable,pow,payments
11419|Toncoin|TON|toncoin|-|3.2|2550000000|-|2021-08-26|-|layer-1,payments
5994|Shiba Inu|SHIB|shiba-inu|ethereum|0.000014|589000000000000|-|2020-08-01|-|meme
6636|Polkadot|DOT|polkadot|-|4.5|1600000000|-|2020-08-19|-|layer-0,interoperability
328|Monero|XMR|monero|-|320|18450000|-|2014-05-21|-|mineable,pow,privacy
3957|UNUS SED LEO|LEO|unus-sed-leo|ethereum|9.5|923000000|-|2019-05-21|-|exchange-token
3635|Cronos|CRO|cronos|-|0.15|30000000000|30263013692|2018-12-14|-|exchange-token,layer-1
29470|Ethena USDe|USDE|ethena-usde|ethereum|1|12000000000|-|2024-02-20|s|stablecoin,defi
4943|Dai|DAI|multi-collateral-dai|ethereum|1|5300000000|-|2019-11-22|s|stablecoin,defi
7083|Uniswap|UNI|uniswap|ethereum|9|630000000|1000000000|2020-09-17|-|defi,dex,governance
6535|NEAR Protocol|NEAR|near-protocol|-|3|1250000000|-|2020-10-14|-|layer-1,smart-contracts,ai
21794|Aptos|APT|aptos|-|5|700000000|-|2022-10-19|-|layer-1,smart-contracts
8916|Internet Computer|ICP|internet-computer|-|6|540000000|-|2021-03-23|-|layer-1,ai
1321|Ethereum Classic|ETC|ethereum-classic|-|20|152000000|210700000|2016-07-24|-|mineable,pow,layer-1
24478|Pepe|PEPE|pepe|ethereum|0.000011|420690000000000|420690000000000|2023-04-17|-|meme
21159|Ondo|ONDO|ondo-finance|ethereum|1|3160000000|10000000000|2024-01-18|-|rwa,defi
7278|Aave|AAVE|aave|ethereum|280|15200000|16000000|2020-10-02|-|defi,lending
22974|Bittensor|TAO|bittensor|-|420|9500000|21000000|2023-03-06|-|ai,layer-1
27075|Mantle|MNT|mantle|ethereum|1.1|3360000000|6219316794|2023-07-03|-|layer-2
20396|Kaspa|KAS|kaspa|-|0.09|26600000000|28704026601|2022-05-10|-|mineable,pow,layer-1
28321|POL (ex-MATIC)|POL|polygon-ecosystem-token|ethereum|0.3|10400000000|-|2023-10-26|-|layer-2,scaling
5690|Render|RENDER|render|solana|5|518000000|644168762|2020-06-11|-|ai,gpu
11841|Arbitrum|ARB|arbitrum|ethereum|0.6|4700000000|10000000000|2023-03-23|-|layer-2,scaling
3794|Cosmos|ATOM|cosmos|-|5|470000000|-|2019-03-14|-|layer-0,interoperability
4030|Algorand|ALGO|algorand|-|0.3|8600000000|10000000000|2019-06-20|-|layer-1,pos
3077|VeChain|VET|vechain|-|0.035|86000000000|86712634466|2017-08-22|-|layer-1,logistics
2280|Filecoin|FIL|filecoin|-|3.5|690000000|1960000000|2017-12-13|-|storage
23149|Sei|SEI|sei|-|0.3|5000000000|10000000000|2023-08-15|-|layer-1,trading
4847|Stacks|STX|stacks|-|1|1530000000|1818000000|2019-10-28|-|layer-2,bitcoin-ecosystem
11840|Optimism|OP|optimism-ethereum|ethereum|1.2|1700000000|4294967296|2022-06-01|-|layer-2,scaling
7226|Injective|INJ|injective|-|20|97000000|100000000|2020-10-21|-|defi,layer-1
10603|Immutable|IMX|immutable-x|ethereum|1.2|1800000000|2000000000|2021-06-17|-|gaming,layer-2
22861|Celestia|TIA|celestia|-|3|700000000|-|2023-10-31|-|modular,data-availability
23095|Bonk|BONK|bonk1|solana|0.000025|77000000000000|-|2022-12-29|-|meme
28752|dogwifhat|WIF|dogwifhat|solana|1.5|999000000|998926392|2023-11-21|-|meme
29210|Jupiter|JUP|jupiter-ag|solana|0.8|3000000000|10000000000|2024-01-31|-|defi,dex
6719|The Graph|GRT|the-graph|ethereum|0.15|9800000000|-|2020-12-17|-|indexing,ai
32684|Sonic|S|sonic|-|0.5|2900000000|-|2024-12-17|-|layer-1,smart-contracts
2416|Theta Network|THETA|theta-network|-|1.3|1000000000|1000000000|2018-01-17|-|video,layer-1
8000|Lido DAO|LDO|lido-dao|ethereum|1.6|895000000|1000000000|2020-12-17|-|defi,staking
1518|Maker|MKR|maker|ethereum|1600|870000|1005577|2017-01-29|-|defi,governance
4157|THORChain|RUNE|thorchain|-|3|330000000|500000000|2019-07-23|-|defi,dex
3155|Quant|QNT|quant|ethereum|100|14500000|14612493|2018-08-10|-|interoperability
4558|Flow|FLOW|flow|-|0.7|1550000000|-|2021-01-27|-|layer-1,nft
6892|MultiversX|EGLD|multiversx-egld|-|30|27000000|31415926|2020-09-03|-|layer-1,pos
2011|Tezos|XTZ|tezos|-|1|1020000000|-|2017-10-06|-|layer-1,pos
1765|EOS|EOS|eos|-|0.7|1560000000|2100000000|2017-07-01|-|layer-1
1720|IOTA|IOTA|iota|-|0.25|3600000000|-|2017-06-13|-|iot,layer-1
6783|Axie Infinity|AXS|axie-infinity|ethereum|6|160000000|270000000|2020-08-31|-|gaming,nft
6210|The Sandbox|SAND|the-sandbox|ethereum|0.4|2400000000|3000000000|2020-08-14|-|gaming,metaverse
1966|Decentraland|MANA|decentraland|ethereum|0.4|1900000000|-|2017-09-17|-|gaming,metaverse
7080|Gala|GALA|gala|ethereum|0.03|40000000000|-|2020-09-16|-|gaming
18876|ApeCoin|APE|apecoin-ape|ethereum|0.9|750000000|1000000000|2022-03-17|-|nft,metaverse
4066|Chiliz|CHZ|chiliz|ethereum|0.08|9300000000|8888888888|2019-07-01|-|sports,fan-tokens
6538|Curve DAO Token|CRV|curve-dao-token|ethereum|0.7|1300000000|3030303031|2020-08-14|-|defi,dex
2586|Synthetix|SNX|synthetix|ethereum|1.5|340000000|-|2018-03-14|-|defi,derivatives
5692|Compound|COMP|compound|ethereum|55|9500000|10000000|2020-06-16|-|defi,lending
7186|PancakeSwap|CAKE|pancakeswap|bnb|2.5|330000000|450000000|2020-09-25|-|defi,dex
8104|1inch|1INCH|1inch|ethereum|0.35|1400000000|1500000000|2020-12-25|-|defi,dex
6758|SushiSwap|SUSHI|sushiswap|ethereum|0.9|280000000|250000000|2020-08-28|-|defi,dex
5864|yearn.finance|YFI|yearn-finance|ethereum|6500|33000|36666|2020-07-18|-|defi,yield
1437|Zcash|ZEC|zcash|-|60|16300000|21000000|2016-10-29|-|mineable,pow,privacy
131|Dash|DASH|dash|-|30|12400000|18900000|2014-02-14|-|mineable,pow,payments
1376|Neo|NEO|neo|-|12|70500000|100000000|2016-09-08|-|layer-1,smart-contracts
5034|Kusama|KSM|kusama|-|25|16500000|-|2019-12-12|-|layer-0,interoperability
8646|Mina|MINA|mina|-|0.5|1200000000|-|2021-06-01|-|layer-1,zero-knowledge
3945|Harmony|ONE|harmony|-|0.015|14500000000|-|2019-06-01|-|layer-1
2469|Zilliqa|ZIL|zilliqa|-|0.015|19000000000|21000000000|2018-01-25|-|layer-1
2577|Ravencoin|RVN|ravencoin|-|0.02|15000000000|21000000000|2018-03-10|-|mineable,pow
109|DigiByte|DGB|digibyte|-|0.01|17500000000|21000000000|2014-02-06|-|mineable,pow
1168|Decred|DCR|decred|-|15|16800000|21000000|2016-02-10|-|mineable,pow,governance
1684|Qtum|QTUM|qtum|-|3|105000000|107822406|2017-05-24|-|layer-1
2099|ICON|ICX|icon|-|0.15|1000000000|-|2017-10-27|-|interoperability
2566|Ontology|ONT|ontology|-|0.2|920000000|1000000000|2018-03-08|-|layer-1
1274|Waves|WAVES|waves|-|1.2|120000000|-|2016-06-02|-|layer-1
1698|Horizen|ZEN|horizen|-|10|15500000|21000000|2017-06-01|-|privacy,mineable
2682|Holo|HOT|holotoken|ethereum|0.0015|173000000000|-|2018-04-30|-|storage
2130|Enjin Coin|ENJ|enjin-coin|ethereum|0.15|1800000000|-|2017-11-01|-|gaming,nft
1697|Basic Attention Token|BAT|basic-attention-token|ethereum|0.2|1490000000|1500000000|2017-06-01|-|advertising
1934|Loopring|LRC|loopring|ethereum|0.15|1370000000|1374513896|2017-08-30|-|layer-2,zero-knowledge
3783|Ankr|ANKR|ankr|ethereum|0.025|10000000000|10000000000|2019-03-06|-|infrastructure,staking
4679|Band Protocol|BAND|band-protocol|ethereum|1|160000000|-|2019-09-18|-|oracle
5632|Arweave|AR|arweave|-|10|65600000|66000000|2020-05-27|-|storage
5665|Helium|HNT|helium|solana|4|180000000|223000000|2020-05-01|-|iot,depin
7653|Oasis|ROSE|oasis-network|-|0.05|7100000000|10000000000|2020-11-18|-|privacy,layer-1
5567|Celo|CELO|celo|-|0.5|580000000|1000000000|2020-05-15|-|layer-2,payments
5604|Secret|SCRT|secret|-|0.3|300000000|-|2020-05-17|-|privacy
7455|Audius|AUDIO|audius|ethereum|0.08|1300000000|-|2020-10-23|-|music
4846|Kava|KAVA|kava|-|0.4|1080000000|-|2019-10-25|-|defi,layer-1
7334|Conflux|CFX|conflux-network|-|0.15|5000000000|-|2020-10-29|-|layer-1
32880|Kaia|KAIA|kaia|-|0.15|5900000000|-|2024-08-29|-|layer-1
10791|eCash|XEC|ecash|-|0.00003|19700000000000|21000000000000|2021-07-01|-|mineable,pow,payments
3602|Bitcoin SV|BSV|bitcoin-sv|-|45|19900000|21000000|2018-11-09|-|mineable,pow
2083|Bitcoin Gold|BTG|bitcoin-gold|-|8|17500000|21000000|2017-10-23|-|mineable,pow
2634|XDC Network|XDC|xdc-network|-|0.07|15000000000|-|2018-04-12|-|enterprise,layer-1
3897|OKB|OKB|okb|ethereum|120|21000000|21000000|2019-04-30|-|exchange-token
2087|KuCoin Token|KCS|kucoin-token|-|12|126000000|170118638|2017-10-24|-|exchange-token
11092|Bitget Token|BGB|bitget-token-new|ethereum|4.5|1150000000|2000000000|2021-07-29|-|exchange-token
4269|GateToken|GT|gatechain-token|-|17|85000000|300000000|2019-09-11|-|exchange-token
13502|Worldcoin|WLD|worldcoin-org|ethereum|0.9|2000000000|10000000000|2023-07-24|-|ai,identity
22691|Starknet|STRK|starknet-token|ethereum|0.15|4300000000|10000000000|2024-02-20|-|layer-2,zero-knowledge
28850|Notcoin|NOT|notcoin|toncoin|0.002|99000000000|-|2024-05-16|-|gaming,meme
25028|ORDI|ORDI|ordi|-|8|21000000|21000000|2023-05-05|-|brc-20,bitcoin-ecosystem
10804|FLOKI|FLOKI|floki-inu|ethereum|0.00009|9500000000000|10000000000000|2021-07-02|-|meme
3773|Artificial Superintelligence Alliance|FET|fetch|ethereum|0.6|2600000000|2719493897|2019-03-01|-|ai
2424|SingularityNET|AGIX|singularitynet|ethereum|0.25|1300000000|2000000000|2018-01-18|-|ai
3911|Ocean Protocol|OCEAN|ocean-protocol|ethereum|0.3|650000000|1410000000|2019-05-06|-|ai,data
7431|Akash Network|AKT|akash-network|-|1.5|270000000|388539008|2020-08-31|-|ai,depin
9481|Pendle|PENDLE|pendle|ethereum|4|165000000|-|2021-04-27|-|defi,yield
8526|Raydium|RAY|raydium|solana|2.5|290000000|555000000|2021-02-21|-|defi,dex
11857|GMX|GMX|gmx|arbitrum|15|10000000|13250000|2021-09-06|-|defi,derivatives
28324|dYdX|DYDX|dydx-chain|-|0.6|750000000|1000000000|2023-10-29|-|defi,derivatives
6953|Frax Share|FXS|frax-share|ethereum|2|89000000|99681495|2020-12-21|-|defi
9903|Convex Finance|CVX|convex-finance|ethereum|3|95000000|100000000|2021-05-17|-|defi,yield
2943|Rocket Pool|RPL|rocket-pool|ethereum|6|21000000|-|2018-06-19|-|defi,staking
13855|Ethereum Name Service|ENS|ethereum-name-service|ethereum|20|37000000|100000000|2021-11-09|-|identity
23121|Blur|BLUR|blur|ethereum|0.1|2300000000|3000000000|2023-02-14|-|nft,marketplace
27565|Arkham|ARKM|arkham|ethereum|0.5|450000000|1000000000|2023-07-18|-|ai,analytics
28177|Pyth Network|PYTH|pyth-network|solana|0.15|5700000000|10000000000|2023-11-20|-|oracle
28541|Jito|JTO|jito|solana|2|330000000|1000000000|2023-12-07|-|defi,staking
29587|Wormhole|W|wormhole|solana|0.1|4700000000|10000000000|2024-04-03|-|interoperability
30171|Ethena|ENA|ethena|ethereum|0.5|6400000000|15000000000|2024-04-02|-|defi
30494|EigenLayer|EIGEN|eigenlayer|ethereum|1.5|290000000|-|2024-09-30|-|defi,restaking
11165|Orca|ORCA|orca|solana|2.2|60000000|100000000|2021-08-11|-|defi,dex
28298|Beam|BEAM|onbeam|ethereum|0.007|50000000000|62434008330|2023-10-30|-|gaming
17799|Axelar|AXL|axelar|-|0.4|1000000000|-|2022-09-26|-|interoperability
14101|Ronin|RON|ronin|-|0.6|600000000|1000000000|2022-01-27|-|gaming,layer-1
7950|Flare|FLR|flare|-|0.02|65000000000|-|2021-03-11|-|layer-1,oracle
23254|Core|CORE|core-dao|-|0.6|1000000000|2100000000|2023-02-08|-|layer-1,bitcoin-ecosystem
24647|Berachain|BERA|berachain|-|2.5|130000000|-|2025-02-06|-|layer-1,defi
32452|Movement|MOVE|movement|ethereum|0.2|2600000000|10000000000|2024-12-09|-|layer-2
29420|Virtuals Protocol|VIRTUAL|virtual-protocol|ethereum|1.2|650000000|1000000000|2024-01-19|-|ai,agents
33597|Fartcoin|FARTCOIN|fartcoin|solana|0.8|999990000|1000000000|2024-10-20|-|meme
35336|OFFICIAL TRUMP|TRUMP|official-trump|solana|8|200000000|1000000000|2025-01-18|-|meme,political
34466|Pudgy Penguins|PENGU|pudgy-penguins|solana|0.02|63000000000|88888888888|2024-12-17|-|meme,nft
28782|Popcat|POPCAT|popcat|solana|0.3|980000000|979978669|2023-12-14|-|meme
28081|SPX6900|SPX|spx6900|ethereum|1.1|930000000|1000000000|2023-08-08|-|meme
29870|BOOK OF MEME|BOME|book-of-meme|solana|0.002|69000000000|68999970000|2024-03-14|-|meme
30126|cat in a dogs world|MEW|cat-in-a-dogs-world|solana|0.003|88800000000|88888888888|2024-03-26|-|meme
24911|Turbo|TURBO|turbo|ethereum|0.005|69000000000|69000000000|2023-05-01|-|meme,ai
32521|Neiro|NEIRO|neiro-ethereum|ethereum|0.0005|420690000000|420690000000|2024-08-01|-|meme
10407|Baby Doge Coin|BABYDOGE|baby-doge-coin|bnb|0.0000000015|170000000000000000|420000000000000000|2021-06-01|-|meme
27772|PayPal USD|PYUSD|paypal-usd|ethereum|1|1300000000|-|2023-08-07|s|stablecoin,payments
26081|First Digital USD|FDUSD|first-digital-usd|bnb|1|1500000000|-|2023-06-01|s|stablecoin
19891|USDD|USDD|usdd|tron|1|500000000|-|2022-05-05|s|stablecoin
2563|TrueUSD|TUSD|trueusd|ethereum|1|490000000|-|2018-03-06|s|stablecoin
3330|Pax Dollar|USDP|paxos-standard|ethereum|1|60000000|-|2018-09-27|s|stablecoin
3306|Gemini Dollar|GUSD|gemini-dollar|ethereum|1|70000000|-|2018-10-10|s|stablecoin
6952|Frax|FRAX|frax|ethereum|1|330000000|-|2020-12-21|s|stablecoin,defi
9566|Liquity USD|LUSD|liquity-usd|ethereum|1|60000000|-|2021-04-06|s|stablecoin,defi
5176|Tether Gold|XAUT|tether-gold|ethereum|3900|250000|-|2020-01-24|g|gold,rwa
4705|PAX Gold|PAXG|pax-gold|ethereum|3900|230000|-|2019-09-26|g|gold,rwa
3717|Wrapped Bitcoin|WBTC|wrapped-bitcoin|ethereum|95000|130000|-|2019-01-30|w:1|wrapped
2396|WETH|WETH|weth|ethereum|3400|2600000|-|2018-01-08|w:1027|wrapped
8085|Lido Staked ETH|STETH|steth|ethereum|3400|9300000|-|2020-12-17|w:1027|wrapped,staking
12409|Lido wstETH|WSTETH|wrapped-steth|ethereum|4100|3400000|-|2022-02-15|w:1027:1.21|wrapped,staking
29035|Wrapped eETH|WEETH|wrapped-eeth|ethereum|3650|2300000|-|2024-03-01|w:1027:1.07|wrapped,restaking
32994|Coinbase Wrapped BTC|CBBTC|coinbase-wrapped-btc|ethereum|95000|70000|-|2024-09-12|w:1|wrapped
7192|Wrapped BNB|WBNB|wbnb|bnb|900|1300000|-|2020-09-10|w:1839|wrapped
15060|Rocket Pool ETH|RETH|rocket-pool-eth|ethereum|3850|500000|-|2021-11-09|w:1027:1.13|wrapped,staking
16086|BitTorrent|BTT|bittorrent-new|tron|0.0000008|986000000000000|990000000000000|2022-01-21|-|storage
8425|JasmyCoin|JASMY|jasmy|ethereum|0.012|49000000000|50000000000|2021-05-17|-|iot,data
3822|Theta Fuel|TFUEL|theta-fuel|-|0.04|7300000000|-|2019-03-28|-|video
1214|Lisk|LSK|lisk|ethereum|0.5|170000000|-|2016-04-06|-|layer-2
1230|Steem|STEEM|steem|-|0.13|500000000|-|2016-04-18|-|social
4948|Nervos Network|CKB|nervos-network|-|0.004|46000000000|-|2019-11-19|-|layer-1,pow
1042|Siacoin|SC|siacoin|-|0.003|58000000000|-|2015-08-26|-|storage,mineable
1455|Golem|GLM|golem-network-tokens|ethereum|0.25|1000000000|1000000000|2016-11-18|-|computing
3640|Livepeer|LPT|livepeer|ethereum|5|43000000|-|2018-08-15|-|video,depin
1772|Storj|STORJ|storj|ethereum|0.25|430000000|-|2017-07-02|-|storage
2694|Nexo|NEXO|nexo|ethereum|1.2|646000000|1000000000|2018-05-01|-|lending,cefi
1659|Gnosis|GNO|gnosis-gno|ethereum|140|2600000|10000000|2017-05-01|-|defi,layer-1
21585|Safe|SAFE|safe1|ethereum|0.35|600000000|1000000000|2024-04-16|-|infrastructure
2777|IoTeX|IOTX|iotex|-|0.02|9440000000|10000000000|2018-05-22|-|iot,depin
7501|WOO|WOO|wootrade|ethereum|0.06|1900000000|2244301587|2020-10-29|-|exchange-token,defi
8719|Illuvium|ILV|illuvium|ethereum|10|9000000|10000000|2021-03-30|-|gaming
8536|Mask Network|MASK|mask-network|ethereum|1.2|100000000|100000000|2021-02-24|-|social
18069|GMT|GMT|green-metaverse-token|solana|0.04|3000000000|6000000000|2022-03-09|-|gaming,move-to-earn
14783|MAGIC|MAGIC|magic-token|arbitrum|0.15|290000000|347714007|2021-11-09|-|gaming
12999|SSV Network|SSV|ssv-network|ethereum|7|14000000|-|2021-09-01|-|staking,infrastructure
7737|API3|API3|api3|ethereum|0.8|130000000|-|2020-12-01|-|oracle
5617|UMA|UMA|uma|ethereum|1.2|88000000|-|2020-04-30|-|oracle,defi
17751|Threshold|T|threshold|ethereum|0.015|10000000000|10000000000|2022-02-01|-|privacy,infrastructure
5728|Balancer|BAL|balancer|ethereum|1.2|65000000|96150704|2020-06-23|-|defi,dex
1982|Kyber Network Crystal|KNC|kyber-network-crystal-v2|ethereum|0.35|190000000|-|2017-09-24|-|defi,dex
1727|Bancor|BNT|bancor|ethereum|0.5|120000000|-|2017-06-16|-|defi,dex
6945|Amp|AMP|amp|ethereum|0.004|84000000000|99213408535|2020-09-08|-|payments
693|Verge|XVG|verge|-|0.006|16500000000|16555000000|2014-10-25|-|privacy,mineable
1567|Nano|XNO|nano|-|0.9|133248297|133248297|2017-03-06|-|payments
541|Syscoin|SYS|syscoin|-|0.05|800000000|888000000|2014-05-20|-|mineable,layer-1
1762|Ergo|ERG|ergo|-|0.6|80000000|97739924|2019-10-08|-|mineable,pow
3029|Flux|FLUX|zel|-|0.3|390000000|440000000|2018-08-02|-|mineable,depin
5370|Hive|HIVE|hive-blockchain|-|0.2|500000000|-|2020-04-08|-|social
9640|Metis|METIS|metisdao|ethereum|15|6500000|10000000|2021-04-19|-|layer-2
12885|Astar|ASTR|astar|-|0.03|8200000000|-|2022-01-17|-|layer-1
6836|Moonbeam|GLMR|moonbeam|-|0.05|1000000000|-|2021-09-15|-|smart-contracts
5647|Kadena|KDA|kadena|-|0.2|330000000|1000000000|2019-11-05|-|pow,layer-1
11948|Radix|XRD|radix-protocol|-|0.008|12000000000|24000000000|2021-07-28|-|defi,layer-1
5964|Trust Wallet Token|TWT|trust-wallet-token|bnb|0.9|420000000|1000000000|2020-06-01|-|wallet
7288|Venus|XVS|venus|bnb|5|16500000|29745110|2020-10-01|-|defi,lending
11396|Joe|JOE|joe|avalanche|0.2|400000000|500000000|2021-07-08|-|defi,dex
19966|QuickSwap|QUICK|quickswap|polygon-ecosystem-token|0.02|900000000|1000000000|2022-07-12|-|defi,dex
9308|dForce|DF|dforce-token|ethereum|0.05|1000000000|1000000000|2021-03-10|-|defi
7129|TerraClassicUSD|USTC|terrausd|-|0.012|5600000000|-|2020-09-08|-|algorithmic
4172|Terra Classic|LUNC|terra-luna|-|0.00006|5800000000000|-|2019-07-26|-|layer-1
4195|FTX Token|FTT|ftx-token|ethereum|0.7|330000000|352170015|2019-07-31|-|exchange-token
2502|Huobi Token|HT|huobi-token|ethereum|0.5|160000000|500000000|2018-02-03|-|exchange-token
1808|OMG Network|OMG|omg|ethereum|0.25|140000000|140245398|2017-07-14|-|layer-2
2405|IOST|IOST|iostoken|-|0.004|21000000000|90000000000|2018-01-24|-|layer-1
1700|Aeternity|AE|aeternity|-|0.02|400000000|-|2017-06-01|-|layer-1
1586|Ark|ARK|ark|-|0.4|190000000|-|2017-03-22|-|layer-1
3218|Energi|NRG|energi|-|0.05|90000000|-|2018-10-11|-|layer-1
7232|Alpha Venture DAO|ALPHA|alpha-finance-lab|ethereum|0.04|900000000|1000000000|2020-10-10|-|defi
6841|Ampleforth Governance|FORTH|ampleforth-governance-token|ethereum|2.5|14000000|15297897|2021-04-21|-|defi
`;
