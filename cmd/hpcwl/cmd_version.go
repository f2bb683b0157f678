package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/spf13/cobra"
)

func newVersionCommand(stdout io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the hpcwl version",
		Long: `Version prints the hpcwl version (with the source revision when the binary
was built from a repository) and the Go version. The SWF headers and JSON
reports hpcwl writes record the same version string.` + exitStatusHelp,
		Example: `  hpcwl version
  hpcwl version --json`,
		Args: exactArgs(0, "no arguments"),
		RunE: action(func(*cobra.Command, []string) error {
			if asJSON {
				return writeJSON(stdout, map[string]string{"version": version.String(), "go": runtime.Version()})
			}
			_, err := fmt.Fprintf(stdout, "hpcwl %s (%s)\n", version.String(), runtime.Version())
			return err
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}
