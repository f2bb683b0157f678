// Package golden compares values with copies pinned in JSON files, for
// regression tests: numbers agree within a relative tolerance, everything
// else exactly. A test pins what a fit or a generator produced once (and
// was checked then) so that any later change to those numbers shows.
package golden

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
)

// Compare marshals v as indented JSON and lists where it differs from the
// pinned copy in file, numbers within the relative tolerance tol. With
// update, file is first rewritten with v. The error reports a value that
// does not marshal or a file that cannot be read or written.
func Compare(file string, v any, tol float64, update bool) ([]string, error) {
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	if update {
		if err := os.WriteFile(file, append(got, '\n'), 0o644); err != nil {
			return nil, err
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return Diff(got, want, tol)
}

// Diff lists where the JSON document got differs from want, one line per
// difference naming its path (".params.a1", ".jobs[3]"), numbers within a
// relative tol (of want; an absolute 1e-300 for a pinned 0). The error
// reports a document that is not JSON.
func Diff(got, want []byte, tol float64) ([]string, error) {
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		return nil, fmt.Errorf("golden: the value: %w", err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return nil, fmt.Errorf("golden: the pinned copy: %w", err)
	}
	return diff("", g, w, tol), nil
}

func diff(path string, got, want any, tol float64) []string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: %v, want an object", path, got)}
		}
		var out []string
		for _, k := range sortedKeys(w) {
			out = append(out, diff(path+"."+k, g[k], w[k], tol)...)
		}
		for _, k := range sortedKeys(g) {
			if _, ok := w[k]; !ok {
				out = append(out, fmt.Sprintf("%s.%s: unexpected", path, k))
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return []string{fmt.Sprintf("%s: %v, pinned %v", path, got, want)}
		}
		var out []string
		for i := range w {
			out = append(out, diff(fmt.Sprintf("%s[%d]", path, i), g[i], w[i], tol)...)
		}
		return out
	case float64:
		g, ok := got.(float64)
		if !ok || !(math.Abs(g-w) <= tol*math.Max(math.Abs(w), 1e-300)) {
			return []string{fmt.Sprintf("%s: %v, pinned %v", path, got, want)}
		}
		return nil
	default:
		if got != want {
			return []string{fmt.Sprintf("%s: %v, pinned %v", path, got, want)}
		}
		return nil
	}
}

// sortedKeys returns m's keys in order, so that differences are listed in
// the same order every run.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
