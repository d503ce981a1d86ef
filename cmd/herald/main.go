// Command herald is a self-hosted support bot for Discourse forums.
//
//	herald answer [FILE|-] [--title TEXT] [--kb PATH] [--model FILE] [--format markdown|json]
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
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
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
  herald queue list|show|approve|edit|reject|judge [ID] --config F (or --db P) [--as USER] [--reason R] [--file F] [--whisper] [--fits IDS | --nothing-fits | --not-support]
  herald queue labels --config F (or --db P) [--out CASES.jsonl] [--forum URL]   staff's decisions as labelled posts for kb fit
  herald history --config F (or --db P)
  herald admin-link --config F --as USER [--ttl 15m]
  herald answer [FILE|-] [--title TEXT] [--kb PATH] [--model FILE] [--format markdown|json] [--bot NAME]
  herald kb import [--db PATH] SOURCE...   (builtin:vllm, pack.yaml, issues.json, docs-folder)
  herald kb list   [--db PATH] [--kind K] [--source S] [--limit N]
  herald kb show   [--db PATH] ID
  herald kb search [--db PATH] TEXT
  herald kb stats  [--db PATH]
  herald kb fit    CASES.jsonl [--db PATH] [--out model.json] [--target-wrong 5] [--useful-drafts 50] [--folds 5]
  herald bench cases FILE [--kb PATH] [--folds 5] [--repeats N | --by-source] [--json] [--per-case]
  herald bench facts FILE [--kb PATH]   (gh issue list JSON or cases.jsonl; one JSON line of facts per post)
  herald version
`

// helpError carries the help a command printed for --help: it is shown
// on standard output and the exit code is 0.
type helpError struct{ text string }

func (e *helpError) Error() string { return "help requested" }

// groups are the commands that take a subcommand.
var groups = map[string]bool{"kb": true, "bench": true, "queue": true}

// commandUsage returns the usage lines of a command or command group
// ("kb", "kb list", "queue approve"), or the whole usage when none match.
// A usage line names alternatives with "|" (pause|resume, list|show).
func commandUsage(name string) string {
	want := strings.Fields(strings.TrimPrefix(name, "queue history"))
	if strings.HasPrefix(name, "queue history") {
		want = []string{"history"}
	}
	var b strings.Builder
	for _, line := range strings.Split(usage, "\n") {
		words := strings.Fields(line)
		if len(words) < 1+len(want) || words[0] != "herald" {
			continue
		}
		match := true
		for i, w := range want {
			if !slices.Contains(strings.Split(words[1+i], "|"), w) {
				match = false
				break
			}
		}
		if match {
			b.WriteString(line + "\n")
		}
	}
	if b.Len() == 0 {
		return usage
	}
	return "Usage:\n" + b.String()
}

func isHelp(arg string) bool {
	return arg == "-h" || arg == "--help" || arg == "help" || arg == "-help"
}

// version is the build's module version and VCS revision.
func version() string {
	v, rev, dirty := "(devel)", "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	if rev != "" {
		return fmt.Sprintf("herald %s (%s, %s)", v, rev, runtime.Version())
	}
	return fmt.Sprintf("herald %s (%s)", v, runtime.Version())
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// exitCode reports err once and maps it to the exit status: 2 for a
// command-line mistake, 1 for anything else.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "herald: %v\nRun 'herald --help' for usage.\n", err)
		return 2
	}
	fmt.Fprintln(stderr, "herald:", err)
	return 1
}

// run dispatches a subcommand. It is main without the process: tests call
// it. --help anywhere prints that command's help on stdout and succeeds,
// before anything is opened.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	err := dispatch(ctx, args, stdin, stdout, stderr)
	var he *helpError
	if errors.As(err, &he) {
		_, err = io.WriteString(stdout, he.text)
	}
	return err
}

func dispatch(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("missing command")
	}
	switch {
	case args[0] == "version" || args[0] == "--version" || args[0] == "-version":
		_, err := fmt.Fprintln(stdout, version())
		return err
	case groups[args[0]] && len(args) == 1:
		return usagef("%s needs a subcommand:\n%s", args[0], commandUsage(args[0]))
	case groups[args[0]] && isHelp(args[1]):
		return &helpError{commandUsage(args[0])}
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
		return &helpError{usage}
	}
	return usagef("unknown command %q", args[0])
}

// parseInterleaved parses flags that may appear before, between or after
// positional arguments, and returns the positionals.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, &helpError{commandHelp(fs)}
			}
			return nil, usagef("%s: %v (see 'herald %s --help')", fs.Name(), err, fs.Name())
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

// newFlagSet returns a flag set for command name that reports nothing
// itself: a parse error or --help comes back from parseInterleaved and is
// shown once.
func newFlagSet(name string, _ io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// commandHelp is a command's usage lines and its flags.
func commandHelp(fs *flag.FlagSet) string {
	var b strings.Builder
	b.WriteString(commandUsage(fs.Name()))
	b.WriteString("\nFlags:\n")
	fs.SetOutput(&b)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	return b.String()
}
