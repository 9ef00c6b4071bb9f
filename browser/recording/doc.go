// Package recording owns what records a session's tabs for a person to
// watch: the screencast (a session's screencast follows its current tab;
// each tab's frames arrive on chromedp's read loop, are acknowledged at a
// pace and handed to a sink, the video package's recorder), where an
// action is about to act (ActionTarget, the video's action overlays), and
// a person's demonstration (the steps the page's listeners send over a
// CDP binding, decoded and kept).
//
// browser imports it and gives it a tab through the Tab interface
// (browser/recording.go): contexts that run CDP commands on the tab's
// session, its logger, and how a failed command is told. It may import
// chromedp and cdproto, zap and the module's leaf packages; never browser
// itself, mcptools or transport (depguard).
package recording
