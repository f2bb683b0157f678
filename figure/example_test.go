package figure_test

import (
	"bytes"
	"fmt"

	"github.com/hpcwl/hpcwl/figure"
	"github.com/hpcwl/hpcwl/locality"
	"github.com/hpcwl/hpcwl/trace"
)

// ExampleCDF draws the runtime CDF of the built-in log and writes it as
// SVG, recording where it came from.
func ExampleCDF() {
	t, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		panic(err)
	}
	f, err := figure.CDF(figure.Runtime, t)
	if err != nil {
		panic(err)
	}
	var b bytes.Buffer
	p := figure.Provenance{Version: "example", Inputs: []figure.Input{{Name: t.Name, SHA256: t.SHA256}}}
	if err := f.Write(&b, figure.SVG, p); err != nil {
		panic(err)
	}
	fmt.Println(f.Series, "series;", bytes.Contains(b.Bytes(), []byte("<desc>")))
	// Output: 1 series; true
}

// ExamplePox draws the pox plot of the built-in log's hourly arrivals: one
// mark per block, the fitted line of slope H and a line of slope 1/2.
func ExamplePox() {
	t, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		panic(err)
	}
	h := locality.Hurst(t, locality.HurstOptions{})
	f, err := figure.Pox(t.Name, "hours", h)
	if err != nil {
		panic(err)
	}
	fmt.Printf("H = %.3f from %d blocks; %d series\n", h.H, len(h.Points), f.Series)
	// Output: H = 0.700 from 389 blocks; 3 series
}
