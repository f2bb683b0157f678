package session

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fig1Graph is the session graph of Madon's Fig. 1 (see
// TestSessionGraphFig1) with a second user of two sessions.
func fig1Graph() *Graph {
	tr := mkTrace(tj{1, 0, 0, 100}, tj{1, 50, 0, 10}, tj{1, 200, 0, 10}, tj{1, 300, 0, 10}, tj{7, 20, 0, 30}, tj{7, 4000, 0, 30})
	p, _ := Identify(tr, Options{Method: Interarrival})
	return SessionGraph(p, Transitive)
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n%s\nwant:\n%s", name, got, want)
	}
}

func TestWriteDOTGolden(t *testing.T) {
	var b bytes.Buffer
	if err := fig1Graph().WriteDOT(&b, nil, []string{"made by a test"}); err != nil {
		t.Fatal(err)
	}
	golden(t, "fig1.dot", b.Bytes())
	b.Reset()
	if err := fig1Graph().WriteDOT(&b, []int32{7}, nil); err != nil {
		t.Fatal(err)
	}
	golden(t, "fig1-user7.dot", b.Bytes())
}

func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	if err := fig1Graph().WriteJSON(&b, []int32{1}, map[string]string{"trace": "x"}); err != nil {
		t.Fatal(err)
	}
	var e struct {
		Source map[string]string `json:"source"`
		Export
	}
	if err := json.Unmarshal(b.Bytes(), &e); err != nil {
		t.Fatal(err)
	}
	if e.Source["trace"] != "x" || len(e.Users) != 1 || e.Users[0] != 1 || len(e.Node) != 4 || len(e.Edges) != 5 {
		t.Fatalf("export %+v", e)
	}
	// Session 2 (job 3 at 200) depends on sessions 0 and 1 (ends 100 and 60).
	want := []ExportEdge{{Root, 0, 0}, {Root, 1, 50}, {0, 2, 100}, {1, 2, 140}, {2, 3, 90}}
	for i, w := range want {
		if e.Edges[i] != w {
			t.Errorf("edge %d: %+v, want %+v", i, e.Edges[i], w)
		}
	}
	if n := e.Node[2]; n.FirstJob != 3 || n.Jobs != 1 || n.First != 200 || n.End != 210 {
		t.Errorf("node 2: %+v", n)
	}
}
