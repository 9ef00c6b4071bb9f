// Command mcpgo is a reference for the benchmark's initialize figure: an MCP
// server on mcp-go with no tools, built like e2e-mcp. What it takes from
// process start to the initialize answer is what every server built on
// mcp-go pays on the machine (the Go runtime and the packages mcp-go
// imports, initialized before main).
package main

import (
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/server"
)

func main() {
	s := server.NewMCPServer("floor-mcp-go", "1", server.WithToolCapabilities(false))
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
