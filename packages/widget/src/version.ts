/** This app's version, sent as WIDGET_READY.version; a test keeps it equal to package.json's. */
export const WIDGET_VERSION = '0.2.0';
