package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/hpcwl/hpcwl/internal/version"
)

func init() { register(newManCommand) }

func newManCommand(stdout, _ io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "man DIR",
		Short: "Write a manual page for every command into a directory",
		Long: `Man writes the manual pages of hpcwl and of each of its commands (hpcwl.1,
hpcwl-simulate.1, ...) into DIR, made from the same definitions as the
--help texts, so they never disagree with the binary. The date in the
headers is today's, or SOURCE_DATE_EPOCH's when that is set. Install them where man
finds them, e.g. /usr/local/share/man/man1 (scripts/install-docs does this
together with the shell completions of 'hpcwl completion').` + exitStatusHelp,
		Example: `  hpcwl man ./man1
  man ./man1/hpcwl-simulate.1`,
		Args: exactArgs(1, "the directory to write the pages into"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			root := cmd.Root()
			root.DisableAutoGenTag = true // no date: the same binary writes the same pages
			hdr := &doc.GenManHeader{Title: "HPCWL", Section: "1", Source: "hpcwl " + version.String(), Manual: "hpcwl manual"}
			// SOURCE_DATE_EPOCH fixes the date in the page headers, for
			// reproducible packages; otherwise it is today.
			if sec, err := strconv.ParseInt(os.Getenv("SOURCE_DATE_EPOCH"), 10, 64); err == nil {
				d := time.Unix(sec, 0).UTC()
				hdr.Date = &d
			}
			if err := doc.GenManTree(root, hdr, dir); err != nil {
				return fmt.Errorf("writing manual pages into %s: %w", dir, err)
			}
			_, err := fmt.Fprintf(stdout, "manual pages written to %s\n", dir)
			return err
		}),
	}
	return cmd
}
