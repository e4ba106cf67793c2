/** The public URL of an HTTP source's endpoint (decisions §6), or null without one. */
export function endpointUrl(publicUrl: string, key: string | null): string | null {
  return key ? `${publicUrl}/http/${key}` : null;
}
