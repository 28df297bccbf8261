package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/alecthomas/kong"
	"github.com/rs/zerolog"
	"github.com/willabides/kongplete"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/persistence"
)

// Exit codes.
const (
	exitOK      = 0 // the command did what was asked
	exitFailure = 1 // it ran and failed
	exitUsage   = 2 // the command line is wrong; nothing ran
	exitLocked  = 3 // another process owns the data directory; nothing ran
	exitDown    = 4 // a client command found no runtime running
)

// cli is the command line. Each command lives in its own file.
type cli struct {
	Globals

	Run           runCmd           `cmd:"" help:"Run the runtime in the foreground: recover the agents, serve the control socket, until SIGINT/SIGTERM."`
	Daemon        daemonCmd        `cmd:"" help:"Run the same runtime in the background: start, stop, status, restart, logs."`
	Once          onceCmd          `cmd:"" help:"Run one prompt to its end on a temporary agent in a throwaway store (no daemon needed); --json gives the final text, token usage, attempt timeline and failure artifact."`
	Prompt        promptCmd        `cmd:"" help:"Send an operator prompt to an agent (its text, - for stdin, or --file); --wait prints the turn's result."`
	Status        statusCmd        `cmd:"" help:"Show an agent's summary."`
	Agents        agentsCmd        `cmd:"" help:"List, create, inspect and control agents."`
	Tail          tailCmd          `cmd:"" help:"Print an agent's newest journal events (--after SEQ goes back); --follow keeps printing new ones."`
	TUI           tuiCmd           `cmd:"" name:"tui" help:"Open the operator console: the agent's conversation live, a prompt composer, questions, actions; closing it changes nothing."`
	Transcript    transcriptCmd    `cmd:"" help:"Print an agent's conversation as the model sees it."`
	Briefs        briefsCmd        `cmd:"" help:"Print an agent's briefs (results and failures)."`
	Suspensions   suspensionsCmd   `cmd:"" help:"List or cancel the questions agents wait on (suspensions)."`
	MCP           mcpCmd           `cmd:"" name:"mcp" help:"List the MCP servers and their tools."`
	Respond       respondCmd       `cmd:"" help:"Answer an agent's question: the first valid answer resumes it."`
	Notifications notificationsCmd `cmd:"" help:"Print an agent's operator notifications, newest first."`
	Tasks         tasksCmd         `cmd:"" help:"List agents' running and recent background tasks."`
	WorkItems     workItemsCmd     `cmd:"" name:"work-items" help:"List or enqueue an agent's work items (its durable work queue)."`
	Timers        timersCmd        `cmd:"" help:"List, create, cancel, pause, resume or run now an agent's timers (one-shot, every, cron in a time zone); --agent picks the agent."`
	Memory        memoryCmd        `cmd:"" help:"Search an agent's memory, or print a hit's exact text; --agent picks the agent."`
	CA            caCmd            `cmd:"" name:"ca" help:"The private CA of remote clients and nodes: init, issue member or client certificates."`
	Providers     providersCmd     `cmd:"" help:"Inspect the model configuration."`
	Tools         toolsCmd         `cmd:"" help:"List the built-in tools the agents are offered, with their argument schemas."`
	Debug         debugCmd         `cmd:"" help:"Inspect what the runtime gives an agent: debug prompt."`
	Skills        skillsCmd        `cmd:"" help:"List an agent's skills, or install one into its home."`
	Doctor        doctorCmd        `cmd:"" help:"Check the data directory offline (the runtime must be stopped), or with --journal a PostgreSQL journal: every stream, its gaps, corrupt records and quarantine, and what can be repaired; exits 1 on damage."`
	Completion    completionsCmd   `cmd:"" name:"install-completions" help:"Install shell completion files for bash, zsh and fish in your completion directories (idempotent; --uninstall removes them). The shell then runs this binary with COMP_LINE set."`
	Version       versionCmd       `cmd:"" help:"Print the version, Go version and commit."`
	Bench         benchCmd         `cmd:"" help:"Measure building blocks of the runtime under load."`
}

// Globals are the flags every command accepts.
type Globals struct {
	Home  string `help:"Runtime home directory (data, agents, logs); default ${default}." env:"HOLON_HOME" default:"~/.holon" type:"path" placeholder:"DIR"`
	JSON  bool   `name:"json" help:"Print results as JSON instead of a table."`
	Agent string `help:"Agent a client command addresses (default: the runtime's default agent)." env:"HOLON_AGENT" placeholder:"ID"`
	Connection
}

// env is what every command's Run receives besides the context.
type env struct {
	Globals
	stdout, stderr io.Writer
	log            *slog.Logger // warnings and errors, to stderr
}

// exitRequest carries kong's exit code (after --help) out of Parse.
type exitRequest int

// run parses args, runs the chosen command and returns the exit code. All
// output goes to stdout and stderr, so tests drive it with buffers.
func run(args []string, stdout, stderr io.Writer) (code int) {
	var c cli
	parser, err := kong.New(&c,
		kong.Name("holon-actors"),
		kong.Description("A runtime for long-lived LLM agents, built as an actor system with a durable journal."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { panic(exitRequest(code)) }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
	)
	if err != nil {
		panic(err) // the cli struct's tags are wrong: a programmer error
	}
	defer func() {
		if r := recover(); r != nil {
			req, ok := r.(exitRequest)
			if !ok {
				panic(r)
			}
			code = int(req)
		}
	}()
	// A shell asking for completions sets COMP_LINE: answer and exit.
	kongplete.Complete(parser)
	kctx, err := parser.Parse(args)
	if err != nil {
		command := ""
		if pe := (*kong.ParseError)(nil); errors.As(err, &pe) && pe.Context != nil {
			command = pe.Context.Command()
		}
		return report(stderr, command, usage(err))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	kctx.BindTo(ctx, (*context.Context)(nil))
	e := &env{Globals: c.Globals, stdout: stdout, stderr: stderr, log: newLogger(stderr)}
	return report(stderr, kctx.Command(), kctx.Run(e))
}

// newLogger writes warnings and errors as JSON lines to w.
func newLogger(w io.Writer) *slog.Logger {
	zl := zerolog.New(w).Level(zerolog.WarnLevel).With().Timestamp().Logger()
	return slog.New(zerolog.NewSlogHandler(zl))
}

// usageError marks an error in the command line: exit code 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usage marks err as a usage error.
func usage(err error) error { return &usageError{err} }

// report prints err as one sentence and a hint on stderr and returns the
// exit code for it. command is the command that ran ("" if none did).
func report(stderr io.Writer, command string, err error) int {
	var ue *usageError
	var ae *control.Error
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, persistence.ErrLocked):
		fmt.Fprintf(stderr, "holon-actors: %s: stop it or use another %s\n", lockedSentence(err), dirFlag(command))
		return exitLocked
	case errors.Is(err, persistence.ErrDamaged):
		fmt.Fprintf(stderr, "holon-actors: %v\nHint: run 'holon-actors doctor' to see what is affected; restore the data directory from a backup to repair it\n", err)
		return exitFailure
	case errors.Is(err, errDamageFound):
		fmt.Fprintf(stderr, "holon-actors: %v\n", err)
		return exitFailure
	case errors.Is(err, control.ErrNotRunning):
		fmt.Fprintf(stderr, "holon-actors: %v: start it with 'holon-actors run' (foreground) or 'holon-actors daemon start'\n", err)
		return exitDown
	case errors.Is(err, errOnceIncomplete):
		fmt.Fprintf(stderr, "holon-actors: %v\n", err)
		return exitFailure
	case errors.Is(err, errTurnFailed):
		fmt.Fprintln(stderr, "holon-actors: the turn failed (its failure brief is above)")
		return exitFailure
	case errors.As(err, &ae):
		msg, hint := forCLI(command, ae) // cli_hints.go
		fmt.Fprintf(stderr, "holon-actors: %s\n", msg)
		if hint != "" {
			fmt.Fprintf(stderr, "Hint: %s\n", hint)
		}
		return exitFailure
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "holon-actors: %v\nRun '%s --help' for usage.\n", ue.err, strings.TrimSpace("holon-actors "+command))
		return exitUsage
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "holon-actors: interrupted")
		return exitFailure
	default:
		fmt.Fprintf(stderr, "holon-actors: %v\n", err)
		return exitFailure
	}
}

// lockedSentence says who holds the data directory.
func lockedSentence(err error) string {
	var le *persistence.LockedError
	switch {
	case !errors.As(err, &le):
		return "another holon-actors process is using the data directory (" + err.Error() + ")"
	case le.PID > 0:
		return fmt.Sprintf("another holon-actors process (pid %d) is using %s", le.PID, le.Dir)
	default:
		return "another holon-actors process is using " + le.Dir
	}
}

// dirFlag names the flag that picks the data directory of command.
func dirFlag(command string) string {
	if strings.HasPrefix(command, "bench") {
		return "--dir"
	}
	return "--home"
}
