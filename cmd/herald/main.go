// Command herald is a self-hosted support bot for Discourse forums.
//
//	herald answer [FILE|-] [--title TEXT] [--kb PATH] [--format markdown|json]
//	herald kb import [--db PATH] SOURCE...
//	herald kb list|show|search|stats [--db PATH] ...
//
// This package only parses flags and wires packages together; the logic
// lives in knowledge, store and bot.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// usageError marks errors caused by bad command-line use (exit code 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

const usage = `herald: a support bot for Discourse forums

Usage:
  herald demo [--forum-only --listen ADDR --state FILE --api-key KEY]
  herald run --config config.yaml
  herald pause|resume --config config.yaml (or --db PATH)
  herald sweep --once [--dry-run] --config F
  herald kb learn --since YYYY-MM-DD --config F
  herald kb import-github owner/repo [--label L] [--state all] [--since D] [--db PATH]
  herald replay --from-forum --since YYYY-MM-DD --config F [--json]
  herald queue list|show|approve|edit|reject [ID] --config F (or --db P) [--as USER] [--reason R] [--file F] [--whisper]
  herald history --config F (or --db P)
  herald admin-link --config F --as USER [--ttl 15m]
  herald answer [FILE|-] [--title TEXT] [--kb PATH] [--format markdown|json] [--bot NAME]
  herald kb import [--db PATH] SOURCE...   (builtin:vllm, pack.yaml, issues.json, docs-folder)
  herald kb list   [--db PATH] [--kind K] [--source S] [--limit N]
  herald kb show   [--db PATH] ID
  herald kb search [--db PATH] TEXT
  herald kb stats  [--db PATH]
  herald kb fit    CASES.jsonl [--db PATH] [--out model.json] [--target-wrong 5] [--useful-drafts 50] [--folds 5]
  herald bench cases FILE [--kb PATH] [--json] [--per-case]
  herald bench semeval DIR [--run FILE] [--json]
  herald bench speed [--sizes 1000,10000,100000] [--posts N] [--json]
  herald bench soak [--topics 10000] [--replies 50000] [--batch 100]
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var ue *usageError
	if errors.As(err, &ue) || errors.Is(err, flag.ErrHelp) {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "herald:", err)
		}
		fmt.Fprint(stderr, usage)
		return 2
	}
	fmt.Fprintln(stderr, "herald:", err)
	return 1
}

// run dispatches a subcommand. It is main without the process: tests call it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("missing command")
	}
	switch args[0] {
	case "answer":
		return cmdAnswer(ctx, args[1:], stdin, stdout, stderr)
	case "kb":
		return cmdKB(ctx, args[1:], stdout, stderr)
	case "bench":
		return cmdBench(ctx, args[1:], stdout, stderr)
	case "run":
		return cmdRun(ctx, args[1:], stdout, stderr)
	case "demo":
		return cmdDemo(ctx, args[1:], stdout, stderr)
	case "replay":
		return cmdReplay(ctx, args[1:], stdout, stderr)
	case "sweep":
		return cmdSweep(ctx, args[1:], stdout, stderr)
	case "queue":
		return cmdQueue(ctx, args[1:], stdin, stdout, stderr)
	case "history":
		return cmdQueue(ctx, append([]string{"history"}, args[1:]...), stdin, stdout, stderr)
	case "admin-link":
		return cmdAdminLink(ctx, args[1:], stdout, stderr)
	case "pause":
		return cmdPause(ctx, args[1:], true, stdout, stderr)
	case "resume":
		return cmdPause(ctx, args[1:], false, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return usagef("unknown command %q", args[0])
}

// parseInterleaved parses flags that may appear before, between or after
// positional arguments, and returns the positionals.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}
