package runner

import (
	"context"
	"fmt"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

// videoKeeper keeps the flows' videos (run --video): each flow's session
// records from its first page, and when the flow ends its video is written
// (a failed flow's, or every flow's with --video-mode on) or discarded.
type videoKeeper struct {
	dir   string
	all   bool
	names map[string]string // the video's file name (no extension) by the flow's session
}

// keep ends the recording of the flow's session, writing it when the flow
// failed (or all are kept); a video that could not be written is said on
// the result's message, not lost in silence.
func (vk *videoKeeper) keep(ctx context.Context, deps *mcptools.Deps, session string, res *flowResult) {
	path, st, err := deps.FinishVideo(ctx, session, res.failed || vk.all, vk.dir, vk.names[session]+".png")
	if err != nil {
		res.videoNote = "no video: " + err.Error()
		return
	}
	if path != "" {
		res.video = path
		res.videoNote = fmt.Sprintf("%dx%d, %d frames, %.1fs (the flow took %.1fs", st.Width, st.Height, st.Frames, st.Duration.Seconds(), st.Session.Seconds())
		if st.IdleCut > 0 {
			res.videoNote += fmt.Sprintf("; %.1fs with no change shortened", st.IdleCut.Seconds())
		}
		res.videoNote += fmt.Sprintf("), %d KB", (st.Bytes+1023)/1024)
	}
}
