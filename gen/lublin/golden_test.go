package lublin

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/hpcwl/hpcwl/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestFitsPinned pins every figure of two fits, parameters and report:
// KTH-SP2 as one class and SDSC-Par-1996 by queue, both with the paper's
// slot convention (the settings of TestRefitKTH and TestFitTypedSDSC96,
// which compare them with the paper; this test compares them with
// themselves), so any change in how a log is read, grouped or fitted
// shows. Numbers must agree within a relative 1e-6: the size fits differ
// between runs in the ninth digit (up to 7e-9 relative seen); after a
// deliberate change, rewrite the files with
// go test ./gen/lublin -run TestFitsPinned -update and explain the change
// in docs/validation.md.
func TestFitsPinned(t *testing.T) {
	for _, c := range []struct {
		log, golden string
		fit         func(Log) (any, error)
		tol         float64 // relative
	}{
		{"KTH-SP2-1996-2.1-cln.swf.gz", "kth-fit.json", func(l Log) (any, error) {
			p, rep, err := FitLog(l, &FitOptions{Slots: PaperSlots})
			return struct {
				Params TypeParams `json:"params"`
				Report *FitReport `json:"report"`
			}{p, rep}, err
		}, 1e-6},
		{"SDSC-Par-1996-3.1-cln.swf.gz", "sdsc-par-typed-fit.json", func(l Log) (any, error) {
			p, rep, err := FitTyped(l, &FitOptions{Slots: PaperSlots, ExcludeSlots: []int{7}})
			return struct {
				Params Params          `json:"params"`
				Report *TypedFitReport `json:"report"`
			}{p, rep}, err
		}, 1e-6},
	} {
		t.Run(c.golden, func(t *testing.T) {
			l, _ := readLog(t, c.log, nil)
			v, err := c.fit(l)
			if err != nil {
				t.Fatal(err)
			}
			d, err := golden.Compare(filepath.Join("testdata", c.golden), v, c.tol, *update)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range d {
				t.Error(d)
			}
		})
	}
}
