/**
 * svc-mcp's icon: a rising line on a blue square, as an SVG data URI so that no host fetches
 * anything to show it. It stays within 255 characters, the longest icon address the MCP Registry
 * takes. The server's serverInfo, the bundle's manifest and server.json all carry it.
 */
export const ICON = {
  src: "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20viewBox='0%200%208%208'%3E%3Crect%20width='8'%20height='8'%20rx='2'%20fill='%231d4ed8'/%3E%3Cpath%20d='M1%206l2-2%201%201%203-3'%20fill='none'%20stroke='%23fff'/%3E%3C/svg%3E",
  mimeType: 'image/svg+xml',
  sizes: ['any'],
} as const;
