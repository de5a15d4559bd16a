const PDF_LIMIT_BYTES = 20 * 1024 * 1024;

/**
 * The chart keeps its own copy of a PDF document: the widget's link expires (15 minutes by
 * default), the chart must not. Only links to the widget's own origin are followed, so the page
 * cannot make this server fetch anything else.
 */
export async function downloadPdf(
  pdfUrl: string,
  widgetOrigin: string,
): Promise<{ bytes: Uint8Array } | { problem: string }> {
  if (!URL.canParse(pdfUrl) || new URL(pdfUrl).origin !== widgetOrigin) {
    return { problem: `The PDF link is not on the widget's origin (${widgetOrigin}).` };
  }
  try {
    const response = await fetch(pdfUrl, { signal: AbortSignal.timeout(15_000) });
    if (!response.ok) return { problem: `The PDF link answered ${response.status}.` };
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length > PDF_LIMIT_BYTES) return { problem: 'The PDF is larger than 20 MiB.' };
    if (new TextDecoder().decode(bytes.subarray(0, 5)) !== '%PDF-') return { problem: 'The link did not give a PDF.' };
    return { bytes };
  } catch (error) {
    return { problem: `The PDF could not be downloaded: ${error instanceof Error ? error.message : String(error)}` };
  }
}
