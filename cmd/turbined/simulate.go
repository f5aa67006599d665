package main

import (
	"context"
	"errors"

	"github.com/turbinesim/turbinesim/infra/runner"
)

// runSimulate is `turbined simulate`: one deck on the solver, also the child
// process of every job attempt (see infra/runner).
func runSimulate(ctx context.Context, env *Env, args []string) error {
	err := runner.Simulate(ctx, args, env.Stdout, env.Stderr)
	if errors.Is(err, runner.ErrUsage) {
		return errUsage
	}
	return err
}
