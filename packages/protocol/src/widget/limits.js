/** Limits of the widget's postMessage contracts (interface: Limits), shared with the REST endpoints that reuse them. */
export const WIDGET_LIMITS = Object.freeze({
  /** A noteConfig carries 1 to 20 ordered sections. */
  noteSectionsMin: 1,
  noteSectionsMax: 20,
  /** A section key is 1 to 64 characters. */
  sectionKeyMaxLength: 64,
  /** A section label is 1 to 128 characters. */
  sectionLabelMaxLength: 128,
});
//# sourceMappingURL=limits.js.map
