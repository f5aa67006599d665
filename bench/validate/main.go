// Command validate runs every OpenFAST v5.0.0 reference case of
// ../shared/reference-outputs with the solver and writes the Markdown
// comparison report (package bench/validation):
//
//	go run ./bench/validate [-shared dir] [-o docs/validation-timedomain.md] [-j 2] [-case name]
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/turbinesim/turbinesim/bench/validation"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := validation.Main(ctx, "go run ./bench/validate", os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
