package logs

import (
	"fmt"
	"os"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/redact"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// Formats are the log encodings [New] accepts.
var Formats = []string{"json", "console"}

// New builds the process logger. It writes to stderr only: in stdio mode
// stdout carries the MCP protocol, and a stray log line there breaks the
// client. level is debug, info, warn or error; format is json or console.
func New(level, format string) (*zap.Logger, error) {
	lvl, err := zapcore.ParseLevel(level)
	if err != nil {
		return nil, fmt.Errorf("log level %q: want debug, info, warn or error", level)
	}
	var cfg zap.Config
	switch strings.ToLower(format) {
	case "json":
		cfg = zap.NewProductionConfig()
		cfg.EncoderConfig.TimeKey = "time"
		cfg.EncoderConfig.EncodeTime = zapcore.ISO8601TimeEncoder
	case "console":
		cfg = zap.NewDevelopmentConfig()
		cfg.DisableStacktrace = true
	default:
		return nil, fmt.Errorf("log format %q: want json or console", format)
	}
	cfg.Level = zap.NewAtomicLevelAt(lvl)
	cfg.Sampling = nil
	cfg.OutputPaths = []string{"stderr"}
	cfg.ErrorOutputPaths = []string{"stderr"}
	enc := zapcore.NewConsoleEncoder(cfg.EncoderConfig)
	if cfg.Encoding == "json" {
		enc = zapcore.NewJSONEncoder(cfg.EncoderConfig)
	}
	// Every entry is masked on its way out, whatever logged it and at
	// whatever level: the secrets of every session (redact.Process).
	sink := zapcore.Lock(zapcore.AddSync(redact.Writer(os.Stderr, redact.Process)))
	return cfg.Build(zap.WrapCore(func(zapcore.Core) zapcore.Core {
		return zapcore.NewCore(enc, sink, cfg.Level)
	}))
}
