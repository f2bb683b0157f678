package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/scale"
	"github.com/hpcwl/hpcwl/trace"
)

// The files in testdata/stream were written, gzipped, by hpcwl before its
// outputs were streamed, whose generate and resample held every job in
// memory and wrote them at the end (commands below; kth-minh.json by "hpcwl
// fit minh builtin:KTH-SP2"). The streamed outputs must be the same
// bytes, the version aside (the files were written by a build that knew no
// revision). The two minh files gained one header line since, the
// parameter file's SHA-256 (HpcwlInput), when generate minh began to
// record it; their jobs and other lines are the bytes first written.
var streamGoldens = []struct {
	file string
	args []string
}{
	{"lublin-count.swf.gz", []string{"generate", "lublin", "--count", "1000", "--seed", "5", "-o", "-"}},
	{"lublin-typed-duration.csv.gz", []string{"generate", "lublin", "--mode", "typed", "--duration", "2d", "--seed", "2", "--users", "30", "--estimates", "tsafrir", "--to", "csv", "-o", "-"}},
	{"lublin-batsim.json.gz", []string{"generate", "lublin", "--count", "300", "--seed", "9", "--procs", "100", "--to", "batsim", "-o", "-"}},
	{"lublin-duration.swf.gz", []string{"generate", "lublin", "--duration", "1d", "--seed", "4", "--hyper-erlang", "-o", "-"}},
	{"lublin-estimates.swf.gz", []string{"generate", "lublin", "--count", "700", "--seed", "6", "--estimates", "tsafrir", "--max-estimate", "2d", "-o", "-"}},
	{"minh-mwm.swf.gz", []string{"generate", "minh", "--params", "testdata/stream/kth-minh.json", "--count", "1500", "--seed", "3", "-o", "-"}},
	{"minh-poisson.csv.gz", []string{"generate", "minh", "--params", "testdata/stream/kth-minh.json", "--arrival-process", "poisson", "--count", "800", "--seed", "4", "--to", "csv", "-o", "-"}},
	{"resample-kth.swf.gz", []string{"resample", "builtin:KTH-SP2", "--duration", "8w", "--load", "0.5", "--seed", "3", "-o", "-"}},
	{"resample-kth.json.gz", []string{"resample", "builtin:KTH-SP2", "--duration", "4w", "--load", "0.3", "--seed", "4", "--stream", "2", "--to", "batsim", "-o", "-"}},
	{"downey-count.swf.gz", []string{"generate", "downey", "--count", "1000", "--seed", "5", "-o", "-"}},
	{"downey-duration.csv.gz", []string{"generate", "downey", "--duration", "3d", "--seed", "2", "--procs", "64", "--to", "csv", "-o", "-"}},
	{"downey-batsim.json.gz", []string{"generate", "downey", "--count", "200", "--seed", "7", "--offered-load", "0.6", "--to", "batsim", "-o", "-"}},
	{"talby-weeks.swf.gz", []string{"generate", "talby", "--weeks", "3", "--seed", "2", "-o", "-"}},
	{"talby-estimates.csv.gz", []string{"generate", "talby", "--weeks", "2", "--seed", "3", "--procs", "256", "--estimates", "tsafrir", "--to", "csv", "-o", "-"}},
}

// goldenVersion is the version the golden files record.
const goldenVersion = "0.1.0-dev"

func readGzip(t *testing.T, name string) []byte {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return b
}

// sameVersion writes this build's version as the goldens record it.
func sameVersion(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte(version.String()), []byte(goldenVersion))
}

// withoutResampleCommand drops resample's ResampleCommand header line,
// which records the program's own arguments (a test binary's, in a test).
func withoutResampleCommand(b []byte) []byte {
	var out []byte
	for _, l := range bytes.SplitAfter(b, []byte("\n")) {
		if !bytes.Contains(l, []byte("ResampleCommand: ")) {
			out = append(out, l...)
		}
	}
	return out
}

// firstDifference describes where a and b differ first.
func firstDifference(a, b []byte) string {
	al, bl := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range min(len(al), len(bl)) {
		if !bytes.Equal(al[i], bl[i]) {
			return "line " + strconv.Itoa(i+1) + ":\n got  " + string(al[i]) + "\n want " + string(bl[i])
		}
	}
	return "lengths " + strconv.Itoa(len(al)) + " and " + strconv.Itoa(len(bl)) + " lines"
}

func TestStreamedGenerateMatchesGoldens(t *testing.T) {
	for _, g := range streamGoldens {
		t.Run(g.file, func(t *testing.T) {
			want := withoutResampleCommand(readGzip(t, filepath.Join("testdata", "stream", g.file)))
			code, out, errOut := runCLI(t, g.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if got := withoutResampleCommand(sameVersion([]byte(out))); !bytes.Equal(got, want) {
				t.Errorf("hpcwl %s: the output differs from %s: %s", strings.Join(g.args, " "), g.file, firstDifference(got, want))
			}
		})
	}
}

// A file output goes through the atomic temporary file (and, when the
// header counts jobs ended by a duration, a scratch file): the same bytes
// as standard output, the command line aside, and nothing left beside it.
func TestStreamedGenerateToFiles(t *testing.T) {
	for _, name := range []string{"d.swf", "d.swf.gz", "d.csv"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, name)
			args := []string{"generate", "lublin", "--duration", "1d", "--seed", "4", "--hyper-erlang"}
			if code, _, errOut := runCLI(t, append(args, "-o", out)...); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			to := "swf"
			if strings.Contains(name, ".csv") {
				to = "csv"
			}
			_, want, _ := runCLI(t, append(args, "--to", to, "-o", "-")...)
			var got []byte
			if strings.HasSuffix(name, ".gz") {
				got = readGzip(t, out)
			} else {
				got, _ = os.ReadFile(out)
			}
			if !bytes.Equal(withoutCommandLine(got), withoutCommandLine([]byte(want))) {
				t.Errorf("%s differs from the output on stdout: %s", name, firstDifference(withoutCommandLine(got), withoutCommandLine([]byte(want))))
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				t.Errorf("files left in the output directory: %v", names)
			}
		})
	}
}

// inMemory runs fn as the command args would run (its command line and
// inputs recorded as run records them), for the in-memory path a streamed
// output is compared with.
func inMemory(t *testing.T, args []string, fn func(stdout io.Writer) error) []byte {
	t.Helper()
	var out, errOut bytes.Buffer
	prevWarn := warnOut
	warnOut = &errOut
	defer func() { warnOut = prevWarn }()
	runArgs, runInputs = args, nil
	invocation = append([]string{"hpcwl"}, args...)
	if err := fn(&out); err != nil {
		t.Fatalf("in memory: %v", err)
	}
	return out.Bytes()
}

// streamedLogs are the logs the streamed commands are compared on: the real
// logs (HPCWL_DATA), the embedded one and the odd ones.
func streamedLogs(t *testing.T) []string {
	logs := []string{"builtin:KTH-SP2", testdata.Odd("reqtime.swf"), testdata.Odd("batsim.swf"), testdata.Odd("gap.swf")}
	for _, l := range testdata.Logs {
		logs = append(logs, testdata.Path(t, l.File))
	}
	return logs
}

// convert streams SWF logs: the same bytes as the whole log loaded and
// written, in every format.
func TestStreamedConvertMatchesInMemory(t *testing.T) {
	for _, log := range streamedLogs(t) {
		for _, to := range []string{"swf", "csv", "batsim", "parquet"} {
			t.Run(filepath.Base(log)+"/"+to, func(t *testing.T) {
				args := []string{"convert", log, "--procs", "64", "--to", to, "-o", "-"}
				code, got, errOut := runCLI(t, args...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				want := inMemory(t, args, func(w io.Writer) error {
					tr, err := loadAnyTrace(log, trace.Options{Procs: 64})
					if err != nil {
						return err
					}
					return writeTrace(tr, "-", to, w)
				})
				if !bytes.Equal([]byte(got), want) {
					t.Errorf("streamed output differs from the in-memory one: %s", firstDifference([]byte(got), want))
				}
			})
		}
	}
}

// scale streams SWF log files, read twice: the same bytes as the log held
// whole, scaled and written.
func TestStreamedScaleMatchesInMemory(t *testing.T) {
	cases := []struct {
		args []string
		opts scaleOptions
	}{
		{[]string{"--by", "interarrival", "--load", "1.2"}, scaleOptions{by: "interarrival", factor: 1.2, factorSet: true}},
		{[]string{"--by", "runtime", "--target-load", "0.9", "--to", "csv"}, scaleOptions{by: "runtime", target: 0.9, targetSet: true, to: "csv"}},
		{[]string{"--by", "size", "--load", "1.3", "--cap", "--pow2", "--to", "batsim"}, scaleOptions{by: "size", factor: 1.3, factorSet: true, cap: true, pow2: true, to: "batsim"}},
	}
	logs := streamedLogs(t)
	for _, log := range logs {
		if strings.HasPrefix(log, "builtin:") || strings.HasSuffix(log, "batsim.swf") {
			continue // the embedded log is the real KTH-SP2; batsim.swf has jobs of no processors
		}
		for _, c := range cases {
			t.Run(filepath.Base(log)+"/"+c.opts.by, func(t *testing.T) {
				args := append(append([]string{"scale", log}, c.args...), "-o", "-")
				code, got, errOut := runCLI(t, args...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				o := c.opts
				o.out = "-"
				m, err := scale.ParseMethod(o.by)
				if err != nil {
					t.Fatal(err)
				}
				want := inMemory(t, args, func(w io.Writer) error {
					_, _, err := scaleWhole(context.Background(), log, o,
						scale.Options{Method: m, Factor: o.factor, Cap: o.cap, PowerOfTwo: o.pow2}, w)
					return err
				})
				if !bytes.Equal([]byte(got), want) {
					t.Errorf("streamed output differs from the in-memory one: %s", firstDifference([]byte(got), want))
				}
			})
		}
	}
}

// clean streams SWF logs (reading them twice to detect flurries): the same
// output, summary and warnings as the log held whole.
func TestStreamedCleanMatchesInMemory(t *testing.T) {
	cases := [][]string{
		{},
		{"--flurries", "both", "--drop-cancelled-zero", "--oversize", "drop"},
		{"--start", "100000", "--end", "20000000", "--oversize", "clamp", "--to", "csv"},
		{"--json", "--filter", "user=3 or hour<6", "--keep-partial", "--to", "batsim"},
		{"--oversize", "error", "--procs", "8"},
	}
	defer func() { streamOutputs = true }()
	for _, log := range streamedLogs(t) {
		for k, c := range cases {
			t.Run(filepath.Base(log)+"/"+strconv.Itoa(k), func(t *testing.T) {
				args := append(append([]string{"clean", log}, c...), "-o", "-")
				streamOutputs = true
				code, got, gotErr := runCLI(t, args...)
				streamOutputs = false
				wantCode, want, wantErr := runCLI(t, args...)
				streamOutputs = true
				if code != wantCode || got != want || gotErr != wantErr {
					t.Errorf("streamed run differs from the in-memory one: exit %d and %d; %s\nstderr:\n%s\nwant:\n%s",
						code, wantCode, firstDifference([]byte(got), []byte(want)), gotErr, wantErr)
				}
			})
		}
	}
}

// generate talby writes each job once its order is known: the same bytes
// and messages as the workload generated whole and written at the end, in
// every format.
func TestStreamedTalbyMatchesInMemory(t *testing.T) {
	cases := [][]string{
		{"--weeks", "5", "--seed", "3"},
		{"--weeks", "4", "--seed", "8", "--procs", "1024"},
		{"--weeks", "3", "--seed", "2", "--estimates", "tsafrir", "--max-estimate", "1d"},
		{"--weeks", "2", "--seed", "5", "--cm", "600", "--cl", "0.65", "--procs", "400"},
	}
	defer func() { streamOutputs = true }()
	for k, c := range cases {
		for _, to := range []string{"swf", "csv", "batsim", "parquet"} {
			t.Run(strconv.Itoa(k)+"/"+to, func(t *testing.T) {
				args := append(append([]string{"generate", "talby"}, c...), "--to", to, "-o", "-")
				streamOutputs = true
				code, got, gotErr := runCLI(t, args...)
				streamOutputs = false
				wantCode, want, wantErr := runCLI(t, args...)
				streamOutputs = true
				if code != 0 || code != wantCode || got != want || gotErr != wantErr {
					t.Errorf("streamed run differs from the in-memory one: exit %d and %d; %s\nstderr:\n%s\nwant:\n%s",
						code, wantCode, firstDifference([]byte(got), []byte(want)), gotErr, wantErr)
				}
			})
		}
	}
}
