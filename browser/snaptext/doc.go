// Package snaptext reads the text of the page engine's snapshots (the YAML
// outline browser writes: "- role "name" [attrs]: text", two spaces an
// indent level) without a browser: what changed between two snapshots of
// a page ([Diff]), and the headings, statuses and alerts one shows
// ([ReadTexts]). Pure functions over strings; it imports the standard
// library and yaml.v3, never browser.
package snaptext
