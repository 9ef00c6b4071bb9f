// Package snaptext reads the text of the page engine's snapshots (the YAML
// outline browser writes: "- role "name" [attrs]: text", two spaces an
// indent level) without a browser: what changed between two snapshots of
// a page ([Diff]), the headings, statuses and alerts one shows
// ([ReadTexts]), the lines that match a search, with their refs and the
// controls inside a container ([FindInSnapshot], browser_find's), and a
// frame's snapshot nested under its iframe's line ([InsertUnder]). Pure
// functions over strings; it imports the standard library, yaml.v3 and
// browser/selector (the /pattern/flags form of a regex argument), never
// browser.
package snaptext
