// Command bare is the other reference for the benchmark's initialize figure:
// a Go program with no dependencies that answers initialize by hand (one
// fixed answer per request line, until stdin closes). It measures the Go
// runtime's own start on the machine.
package main

import (
	"bufio"
	"encoding/json"
	"os"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), 1<<20)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue // a notification (notifications/initialized)
		}
		var result string
		switch req.Method {
		case "initialize":
			result = `{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"floor-bare","version":"1"}}`
		default:
			result = `{}`
		}
		_, _ = os.Stdout.WriteString(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + result + "}\n")
	}
}
