package main

import (
	"context"

	"github.com/turbinesim/turbinesim/bench/validation"
)

// runValidate runs every OpenFAST v5.0.0 reference case of the shared
// reference-outputs folder with the solver and writes the Markdown
// comparison report (package bench/validation):
//
//	turbined validate [-shared dir] [-o docs/validation-timedomain.md] [-j n] [-case name]
func runValidate(ctx context.Context, env *Env, args []string) error {
	return validation.Main(ctx, "turbined validate", args, env.Stdout, env.Stderr)
}
