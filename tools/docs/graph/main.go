// Command graph renders a Graphviz DOT document (standard input) as SVG
// (standard output) with Graphviz compiled to WebAssembly
// (github.com/goccy/go-graphviz), so the docs' picture of an installation
// tree is made without a Graphviz installation. tools/docs/generate.sh
// runs it on the DOT that landscaper_rendered_installation draws of the
// quickstart. A module of its own: the provider does not depend on it.
package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/goccy/go-graphviz"
)

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "graph:", err)
		os.Exit(1)
	}
}

func run(in io.Reader, out io.Writer) error {
	dot, err := io.ReadAll(in)
	if err != nil {
		return err
	}
	ctx := context.Background()
	g, err := graphviz.New(ctx)
	if err != nil {
		return err
	}
	defer g.Close()
	graph, err := graphviz.ParseBytes(dot)
	if err != nil {
		return fmt.Errorf("parsing the DOT: %w", err)
	}
	defer graph.Close()
	var svg bytes.Buffer
	if err := g.Render(ctx, graph, graphviz.SVG, &svg); err != nil {
		return fmt.Errorf("rendering: %w", err)
	}
	_, err = out.Write(svg.Bytes())
	return err
}
