// Command hpcwl reads, characterizes, models, resamples and simulates HPC
// workload logs in the Standard Workload Format.
//
// Conventions shared by every command:
//   - Exit status 0 on success, 1 on a data or run error, 2 on a usage error.
//   - Messages go to stderr; results go to stdout or to files.
//   - A summary prints as a table, or as JSON on stdout with --json.
//   - A command that writes a trace or table takes -o FILE; the format comes
//     from the extension (--to swf|csv|batsim forces it); "-" is stdout.
//   - Output files are written atomically. An output that is one of the
//     inputs, or that cannot be written, is refused before any work.
//   - Standard output carries one stream: at most one output may be "-",
//     and when one is, the summary (table or JSON) goes to stderr.
//   - A flag whose default is "not given" (shown as 0) refuses an explicit 0.
//   - SIGINT or SIGTERM stops any command with exit status 130, leaving no
//     output or temporary file behind.
//
// Each command lives in cmd_<verb>.go as new<Verb>Command (cobra wiring only)
// plus run<Verb>(ctx, opts, stdout) error doing the work through library
// calls; register it in newRootCommand below.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	_ "time/tzdata" // the logs' time zones must resolve on machines without zoneinfo

	"github.com/hpcwl/hpcwl/internal/jsonsafe"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hpcwl/hpcwl/batsim"
	"github.com/hpcwl/hpcwl/internal/atomicfile"
	"github.com/hpcwl/hpcwl/internal/version"
)

// Exit statuses.
const (
	exitOK       = 0
	exitError    = 1
	exitUsage    = 2
	exitCanceled = 130
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-sigs
		// Stop at once, whatever the command is doing: cancel its work,
		// remove the temporary files of the outputs being written (no output
		// appears afterwards) and exit.
		cancel()
		atomicfile.Stop()
		fmt.Fprintf(os.Stderr, "hpcwl: interrupted (%v); the outputs being written were removed (outputs already complete, and the runs a sweep recorded, are kept)\n", sig)
		os.Exit(exitCanceled)
	}()
	os.Exit(runContext(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line args and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdout, stderr)
}

// runContext is run under ctx, whose cancellation stops the commands that
// watch it with exit status 130.
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	prevWarn := warnOut
	warnOut = stderr
	defer func() { warnOut = prevWarn }()
	runArgs, runInputs = args, nil
	inputFrom, batsimVersion = "", batsim.Version4
	defer func() { inputFrom, batsimVersion = "", batsim.Version4 }()
	root := newRootCommand(stdout, stderr)
	root.SetArgs(args)
	invocation = append([]string{"hpcwl"}, args...)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	code := exitCode(err)
	fmt.Fprintf(stderr, "hpcwl: %v\n", err)
	if code == exitUsage && cmd != nil {
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	}
	if cmd != nil {
		if f := cmd.Flags().Lookup("json"); f != nil && f.Value.String() == "true" {
			writeJSON(stdout, map[string]any{"error": err.Error(), "exit_status": code})
		}
	}
	return code
}

// runError marks an error returned by a command's work (as opposed to a
// usage error found by cobra while parsing the command line).
type runError struct{ err error }

func (e runError) Error() string { return e.err.Error() }
func (e runError) Unwrap() error { return e.err }

// usageError is a mistake in the command line found by a command itself.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef returns a usage error (exit status 2).
func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// exitCode maps an error to the exit status: usage errors (including every
// error cobra reports before a command runs) give 2, interruptions 130 and
// everything else 1.
func exitCode(err error) int {
	var ue usageError
	var re runError
	switch {
	case errors.As(err, &ue):
		return exitUsage
	case errors.Is(err, context.Canceled):
		return exitCanceled
	case errors.As(err, &re):
		return exitError
	default:
		return exitUsage
	}
}

// action adapts a command's work function to cobra, marking its errors as
// run errors unless they are usage errors.
func action(fn func(cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if err := checkPositiveFlags(cmd); err != nil {
			return err
		}
		warnDeprecated(cmd)
		err := fn(cmd, args)
		var ue usageError
		if err == nil || errors.As(err, &ue) {
			return err
		}
		return runError{err}
	}
}

// exactArgs is cobra.ExactArgs with a message naming what is expected.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("%s expects %s, got %d argument(s)", cmd.Name(), what, len(args))
		}
		return nil
	}
}

// minArgs accepts n or more positional arguments.
func minArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < n {
			return usagef("%s expects %s, got %d argument(s)", cmd.Name(), what, len(args))
		}
		return nil
	}
}

const exitStatusHelp = `
When an output is "-" (standard output), the summary goes to standard error.
Exit status: 0 on success, 1 on a data or run error, 2 on a usage error,
130 when interrupted (SIGINT or SIGTERM).`

func newRootCommand(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "hpcwl",
		Short: "Workloads and evaluations for HPC job schedulers",
		Long: `hpcwl gives researchers of HPC job schedulers realistic workloads and
trustworthy evaluations. It reads, cleans and characterizes workload logs in
the Standard Workload Format (SWF) of the Parallel Workloads Archive; fits and
generates workload models (Lublin-Feitelson); identifies user sessions and
batches; resamples logs at the user level (Zakay-Feitelson); and simulates
schedulers (FCFS, EASY, conservative, SJF, SJBF, UPS and more) with rigid
replay or with users who react to the simulated system (Madon's replay with
feedback, Zakay's user models), reporting classic and feedback-aware metrics.

A TRACE argument is an SWF file (plain or gzipped), "-" for standard input,
or "builtin:KTH-SP2" for the log embedded in the binary; CSV (.csv), Batsim
JSON (.json) and Parquet (.parquet) traces are read too. Traces and result
tables are written as Parquet when the output name ends in .parquet.` + exitStatusHelp,
		Version:       version.String(),
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	// --version prints what `hpcwl version` prints.
	root.SetVersionTemplate("hpcwl {{.Version}} (" + runtime.Version() + ")\n")
	root.SetOut(stdout)
	root.SetErr(stderr)
	reading = readSettings{}
	root.PersistentFlags().BoolVar(&reading.lenient, "lenient", false,
		"read values outside a field's documented range (a status of -4, a negative run time) as unknown (-1), "+
			"counted per field in a warning and a header note, instead of failing")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.SetFlagErrorFunc(flagError)
	root.AddCommand(
		newVersionCommand(stdout),
	)
	addCommands(root, stdout, stderr)
	return root
}

// extraCommands holds constructors registered by the cmd_*.go files through
// init functions, so that each command is wired in its own file.
var extraCommands []func(stdout, stderr io.Writer) *cobra.Command

// register adds a command constructor; call it from an init function.
func register(fn func(stdout, stderr io.Writer) *cobra.Command) {
	extraCommands = append(extraCommands, fn)
}

func addCommands(root *cobra.Command, stdout, stderr io.Writer) {
	for _, fn := range extraCommands {
		root.AddCommand(fn(stdout, stderr))
	}
}

// writeJSON prints v as indented JSON; infinite and NaN numbers, which
// JSON cannot hold, print as null (unknown).
func writeJSON(w io.Writer, v any) error {
	b, err := jsonsafe.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// annDeprecated marks a flag kept as a deprecated alias; its value is the
// advice printed when the flag is used.
const annDeprecated = "hpcwl-deprecated"

// deprecate hides the flag name from the help and has a warning printed on
// standard error (never on standard output, which may carry data) when it
// is used.
func deprecate(cmd *cobra.Command, name, advice string) {
	f := cmd.Flags().Lookup(name)
	if f.Annotations == nil {
		f.Annotations = map[string][]string{}
	}
	f.Annotations[annDeprecated] = []string{advice}
	f.Hidden = true
}

// warnDeprecated warns of every deprecated flag given on the command line.
func warnDeprecated(cmd *cobra.Command) {
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if advice, ok := f.Annotations[annDeprecated]; ok {
			fmt.Fprintf(cmd.ErrOrStderr(), "warning: --%s is deprecated: %s\n", f.Name, advice[0])
		}
	})
}
