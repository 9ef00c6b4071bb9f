package runner

import (
	"context"
	"fmt"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

// videoKeeper keeps the flows' videos (run --video): each flow's session
// records from its first page, and when the flow ends its video is written
// (a failed flow's, or every flow's with --video-mode on) or discarded.
// With --video-mode on-first-retry only a flow's first retry records
// (Deps.RecordSession), and its video is kept.
type videoKeeper struct {
	dir  string
	all  bool
	deps *mcptools.Deps
}

// newVideoKeeper has every session record from its first page.
func newVideoKeeper(o Options, env *runEnv) *videoKeeper {
	env.deps.Videos = &mcptools.VideoDefaults{EveryCall: true}
	return &videoKeeper{dir: o.Video, all: o.VideoMode != VideoRetainOnFailure, deps: env.deps}
}

// flowDone ends the recording of the flow's session, writing it when the
// flow failed (or all are kept); a video that could not be written is said
// on the result's message, not lost in silence.
func (vk *videoKeeper) flowDone(ctx context.Context, t test, res *flowResult) {
	path, st, err := vk.deps.FinishVideo(ctx, t.session, res.failed || vk.all, vk.dir, t.stem+".png")
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
