/**
 * The launch URL opened on one workbench (`#/<id>`, the app's own deep link). A page that opens
 * elsewhere than the default MCP workbench then does not load and run that workbench's chunk
 * first; the page objects still click their tab, as a user would, once it is there.
 */
export function onTab(url: string, id: string): string {
  const at = url.indexOf("#");
  return `${at < 0 ? url : url.slice(0, at)}#/${id}`;
}
