// Command turbined is the turbine simulation service: one binary whose
// subcommands are listed in commands(). `turbined` alone means `serve`.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "turbined:", err)
		os.Exit(1)
	}
}

// Env is what a subcommand gets from the outside world; tests pass their own.
type Env struct {
	Getenv func(string) string
	Stdout io.Writer
	Stderr io.Writer
	Log    *slog.Logger
}

// command is one subcommand. Adding one (simulate, perf, wind, worker) means
// writing its run function and adding a line to commands().
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env *Env, args []string) error
}

func commands() []command {
	return []command{
		{"serve", "run the web service (default)", runServe},
		{"migrate", "apply database migrations and exit", runMigrate},
		{"perf", "compute a Cp/Ct/Cq surface of a deck's rotor (ROSCO text layout)", runPerf},
		{"wind", "generate IEC turbulent boxes (.bts) and gust/shear events", runWind},
		{"worker", "run simulation workers only (no HTTP); scale out by starting more", runWorker},
		{"simulate", "run one OpenFAST deck on the solver: simulate main.fst [-o dir] [-tmax s]", runSimulate},
		{"validate", "compare the solver with the OpenFAST reference outputs: validate [-shared dir] [-o report.md]", runValidate},
	}
}

var errUsage = errors.New("usage")

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	env := &Env{Getenv: getenv, Stdout: stdout, Stderr: stderr, Log: newLogger(getenv, stderr)}
	name := "serve"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	if name == "help" || name == "-h" || name == "--help" {
		usage(stdout)
		return nil
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, env, args)
		}
	}
	usage(stderr)
	return fmt.Errorf("unknown command %q", name)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: turbined [command]\n\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nConfiguration is read from the environment; see README.md.")
}

func newLogger(getenv func(string) string, w io.Writer) *slog.Logger {
	level := slog.LevelInfo
	_ = level.UnmarshalText([]byte(getenv("LOG_LEVEL")))
	opts := &slog.HandlerOptions{Level: level}
	if getenv("LOG_FORMAT") == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
