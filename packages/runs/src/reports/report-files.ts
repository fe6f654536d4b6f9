/** The four files of a conformance report folder. */
export const REPORT_FILES = ['junit.xml', 'results.json', 'summary.md', 'report.html'] as const;
