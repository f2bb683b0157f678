package golden

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDiff checks each kind of difference on small documents worked by
// hand: numbers just inside and just outside the tolerance, a pinned 0, a
// missing and an unexpected key, arrays of another length, other types.
func TestDiff(t *testing.T) {
	for _, c := range []struct {
		name, got, want string
		tol             float64
		diffs           []string
	}{
		{"same", `{"a": 1, "b": [1, "x", true, null]}`, `{"b": [1, "x", true, null], "a": 1}`, 0, nil},
		{"inside", `{"a": 1.0000009}`, `{"a": 1}`, 1e-6, nil},
		{"relative to the pinned", `{"a": -2000.0019}`, `{"a": -2000}`, 1e-6, nil},
		{"outside", `{"a": 1.0000011}`, `{"a": 1}`, 1e-6, []string{".a: 1.0000011, pinned 1"}},
		{"zero pinned", `{"a": 1e-200}`, `{"a": 0}`, 1e-6, []string{".a: 1e-200, pinned 0"}},
		{"zero both", `{"a": 0}`, `{"a": 0}`, 0, nil},
		{"number for string", `{"a": "1"}`, `{"a": 1}`, 1, []string{".a: 1, pinned 1"}},
		{"missing and unexpected", `{"b": 1, "c": 2}`, `{"a": 1, "b": 1}`, 0, []string{".a: <nil>, pinned 1", ".c: unexpected"}},
		{"length", `{"a": [1, 2]}`, `{"a": [1]}`, 0, []string{".a: [1 2], pinned [1]"}},
		{"element", `[1, [2, 3]]`, `[1, [2, 4]]`, 0.1, []string{"[1][1]: 3, pinned 4"}},
		{"object for array", `{"a": 1}`, `[1]`, 0, []string{": map[a:1], pinned [1]"}},
		{"array for object", `[1]`, `{"a": 1}`, 0, []string{": [1], want an object"}},
		{"string", `{"a": "x"}`, `{"a": "y"}`, 0, []string{".a: x, pinned y"}},
		{"bool", `true`, `false`, 0, []string{": true, pinned false"}},
	} {
		got, err := Diff([]byte(c.got), []byte(c.want), c.tol)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !slices.Equal(got, c.diffs) {
			t.Errorf("%s: %q, want %q", c.name, got, c.diffs)
		}
	}
	if _, err := Diff([]byte(`{`), []byte(`{}`), 0); err == nil {
		t.Error("a value that is not JSON: no error")
	}
	if _, err := Diff([]byte(`{}`), []byte(`{`), 0); err == nil {
		t.Error("a pinned copy that is not JSON: no error")
	}
}

// TestCompare checks the update and compare cycle in a temporary
// directory: a missing file is an error, update writes it, a changed value
// then differs, and a value that does not marshal is an error.
func TestCompare(t *testing.T) {
	file := filepath.Join(t.TempDir(), "v.json")
	v := map[string]any{"a": 1.5, "b": []int{1, 2}}
	if _, err := Compare(file, v, 0, false); err == nil {
		t.Error("no pinned copy: no error")
	}
	if d, err := Compare(file, v, 0, true); err != nil || d != nil {
		t.Fatalf("update: %q, %v", d, err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"a\": 1.5,\n  \"b\": [\n    1,\n    2\n  ]\n}\n"; string(b) != want {
		t.Errorf("file %q, want %q", b, want)
	}
	v["a"] = 1.6
	if d, err := Compare(file, v, 0.01, false); err != nil || !slices.Equal(d, []string{".a: 1.6, pinned 1.5"}) {
		t.Errorf("changed: %q, %v", d, err)
	}
	if _, err := Compare(file, func() {}, 0, true); err == nil {
		t.Error("a function: no error")
	}
	if _, err := Compare(filepath.Join(file, "x"), v, 0, true); err == nil {
		t.Error("a file that cannot be written: no error")
	}
}
