package main

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// Provenance of the outputs (docs/formats.md, "Provenance"): every file a
// command writes records the hpcwl version, the full command line and the
// name and SHA-256 of every input trace. Where it goes depends on the
// format:
//   - SWF traces: header lines "; HpcwlVersion:", "; HpcwlCommand:" and one
//     "; HpcwlInput: NAME SHA256" per input (SWF readers skip ';' lines);
//   - trace CSV: the same lines in its '#' header;
//   - Batsim workloads (JSON): the same lines in "swf_header";
//   - CSV tables whose readers expect a fixed layout (the Batsim jobs.csv of
//     simulate and evaluate --jobs, curves, replicate tables, the weekly
//     cycle): a sidecar FILE.json beside FILE, written with it;
//   - fit lublin parameter files: a "source" object in the file.
//
// Outputs written to standard output carry what their format holds; a
// sidecar is written only beside a file.

// Header keys recording provenance.
const (
	keyVersion = "HpcwlVersion"
	keyCommand = "HpcwlCommand"
	keyInput   = "HpcwlInput"
)

// inputRecord is an input read by the running command.
type inputRecord struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256,omitempty"`
}

// runArgs and runInputs describe the command running now: its arguments
// and the traces it read (each loadAnyTrace adds one).
var (
	runArgs   []string
	runInputs []inputRecord
)

// commandLine returns the running command line as "hpcwl ARGS", each
// argument quoted when the shell would need it.
func commandLine() string {
	parts := []string{"hpcwl"}
	for _, a := range runArgs {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`*?<>|&;()[]{}#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

// recordInput notes that the running command read t.
func recordInput(t *trace.Trace) {
	for _, in := range runInputs {
		if in.Name == t.Name && in.SHA256 == t.SHA256 {
			return
		}
	}
	runInputs = append(runInputs, inputRecord{Name: t.Name, SHA256: t.SHA256})
}

// stampHeader adds the provenance lines of the running command to h.
// Lines already there (from the tools that made the input) stay, so a
// chain of commands is recorded in order.
func stampHeader(h *swf.Header) {
	h.Add(keyVersion, "hpcwl "+version.String())
	h.Add(keyCommand, commandLine())
	for _, in := range runInputs {
		sha := in.SHA256
		if sha == "" {
			sha = "-"
		}
		h.Add(keyInput, in.Name+" "+sha)
	}
}

// stamped returns a shallow copy of t whose header carries the provenance
// of the running command; t is left unchanged.
func stamped(t *trace.Trace) *trace.Trace {
	c := *t
	c.Header = t.Header.Clone()
	stampHeader(&c.Header)
	return &c
}

// provenanceRecord is the content of a sidecar file and of a parameter file's
// "source".
type provenanceRecord struct {
	Version string        `json:"hpcwl_version"`
	Command string        `json:"command"`
	Inputs  []inputRecord `json:"inputs"`
	Output  string        `json:"output,omitempty"`
	Format  string        `json:"format,omitempty"`
}

func currentProvenance() provenanceRecord {
	in := runInputs
	if in == nil {
		in = []inputRecord{}
	}
	return provenanceRecord{Version: version.String(), Command: commandLine(), Inputs: in}
}

// sidecarName is the name of the provenance file written beside name.
func sidecarName(name string) string { return name + ".json" }

// writeTableOutput writes the table name like writeOutput and, when name is
// a file, its provenance in the sidecar name.json (format describes the
// table, e.g. "batsim jobs.csv").
func writeTableOutput(name, format string, stdout io.Writer, fn func(io.Writer) error) error {
	if err := writeOutput(name, stdout, fn); err != nil {
		return err
	}
	if name == "-" || isParquetName(name) {
		return nil // a Parquet table records its provenance in its metadata
	}
	p := currentProvenance()
	p.Output, p.Format = name, format
	return writeOutput(sidecarName(name), stdout, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(p)
	})
}
