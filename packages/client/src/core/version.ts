/** This package's version; a test keeps it equal to package.json's. */
export const CLIENT_VERSION = '0.2.0';
