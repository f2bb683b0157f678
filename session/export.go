package session

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// ExportNode is one node of an exported graph: a session or a batch.
type ExportNode struct {
	// ID is the node's number (Partition.Sessions or Partition.Batches).
	ID   int32 `json:"id"`
	User int32 `json:"user"`
	// Jobs counts its jobs; FirstJob is the job number (SWF field 1) of
	// the first.
	Jobs     int   `json:"jobs"`
	FirstJob int64 `json:"first_job"`
	// First and Last are its first and last recorded submit times, End its
	// latest recorded end, in seconds of the log.
	First int64 `json:"first_submit"`
	Last  int64 `json:"last_submit"`
	End   int64 `json:"end"`
}

// ExportEdge is one dependency: To depends on From (-1: the fictive root)
// with a recorded think time Think, in seconds.
type ExportEdge struct {
	From  int32 `json:"from"`
	To    int32 `json:"to"`
	Think int64 `json:"think_s"`
}

// Export is a dependency graph, or the part of it of some users, in the
// form [Graph.WriteJSON] writes.
type Export struct {
	// Nodes is "sessions" or "batches"; Reduction the edge reduction.
	Nodes     string       `json:"nodes"`
	Reduction string       `json:"reduction"`
	Sessions  string       `json:"partitioning"`
	Users     []int32      `json:"users"`
	Node      []ExportNode `json:"node_list"`
	Edges     []ExportEdge `json:"edges"`
}

// userOf returns the user ID of node n.
func (g *Graph) userOf(n int) int32 {
	s := n
	if g.Batches {
		s = int(g.P.Batches[n].Session)
	}
	return g.P.Users[g.P.Sessions[s].User].ID
}

// Export returns the nodes and edges of the users listed (all users when
// users is empty), in node order.
func (g *Graph) Export(users []int32) *Export {
	e := &Export{Nodes: "sessions", Reduction: g.Reduction.String(), Sessions: g.P.Options.String()}
	if g.Batches {
		e.Nodes = "batches"
	}
	keep := func(u int32) bool { return len(users) == 0 || slices.Contains(users, u) }
	seen := map[int32]bool{}
	for n := range g.Len() {
		u := g.userOf(n)
		if !keep(u) {
			continue
		}
		if !seen[u] {
			seen[u] = true
			e.Users = append(e.Users, u)
		}
		node := ExportNode{ID: int32(n), User: u}
		var jobs []int32
		if g.Batches {
			b := &g.P.Batches[n]
			jobs, node.First, node.Last, node.End = g.P.BatchJobs(n), b.First, b.Last, b.MaxEnd
		} else {
			s := &g.P.Sessions[n]
			jobs, node.First, node.Last, node.End = g.P.Jobs(n), s.First, s.Last, s.MaxEnd
		}
		node.Jobs = len(jobs)
		if len(jobs) > 0 {
			node.FirstJob = g.P.Trace.Jobs[jobs[0]].ID
		}
		e.Node = append(e.Node, node)
		for _, p := range g.Preds(n) {
			e.Edges = append(e.Edges, ExportEdge{From: p.From, To: int32(n), Think: p.Think})
		}
	}
	slices.Sort(e.Users)
	return e
}

// WriteJSON writes the graph of the users listed (all when empty) as JSON
// ([Export]), with meta (e.g. provenance) as its "source" object.
func (g *Graph) WriteJSON(w io.Writer, users []int32, meta map[string]string) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(struct {
		Source map[string]string `json:"source,omitempty"`
		*Export
	}{meta, g.Export(users)})
}

// WriteDOT writes the graph of the users listed (all when empty) in
// Graphviz's DOT language: one cluster per user, a node per session or
// batch labelled with its number and job count, the fictive root as a
// point, and each edge labelled with its think time. meta goes into
// comment lines at the top.
func (g *Graph) WriteDOT(w io.Writer, users []int32, meta []string) error {
	e := g.Export(users)
	bw := bufio.NewWriter(w)
	for _, m := range meta {
		fmt.Fprintf(bw, "// %s\n", strings.ReplaceAll(m, "\n", " "))
	}
	prefix := "s"
	if g.Batches {
		prefix = "b"
	}
	fmt.Fprintf(bw, "digraph %s {\n  rankdir=LR;\n  node [shape=box, fontsize=10];\n  edge [fontsize=8];\n", e.Nodes)
	kind := "session"
	if g.Batches {
		kind = "batch"
	}
	fmt.Fprintf(bw, "  label=%s;\n", strconv.Quote(fmt.Sprintf("%s graph, partitioning %s, %s reduction", kind, e.Sessions, e.Reduction)))
	if !g.Batches {
		fmt.Fprintf(bw, "  root [shape=point];\n")
	}
	byUser := map[int32][]ExportNode{}
	for _, n := range e.Node {
		byUser[n.User] = append(byUser[n.User], n)
	}
	for _, u := range e.Users {
		fmt.Fprintf(bw, "  subgraph cluster_u%d {\n    label=\"user %d\";\n", u, u)
		for _, n := range byUser[u] {
			jobs := "jobs"
			if n.Jobs == 1 {
				jobs = "job"
			}
			fmt.Fprintf(bw, "    %s%d [label=\"%s%d\\n%d %s\"];\n", prefix, n.ID, prefix, n.ID, n.Jobs, jobs)
		}
		fmt.Fprintf(bw, "  }\n")
	}
	for _, ed := range e.Edges {
		from := prefix + strconv.Itoa(int(ed.From))
		if ed.From == Root {
			from = "root"
		}
		fmt.Fprintf(bw, "  %s -> %s%d [label=\"%s\"];\n", from, prefix, ed.To, thinkText(ed.Think))
	}
	fmt.Fprintf(bw, "}\n")
	return bw.Flush()
}

// thinkText formats a think time compactly: "42s", "13m", "2.4h", "3.1d".
func thinkText(s int64) string {
	switch {
	case s < 120:
		return strconv.FormatInt(s, 10) + "s"
	case s < 7200:
		return strconv.FormatInt(s/60, 10) + "m"
	case s < 2*86400:
		return strconv.FormatFloat(float64(s)/3600, 'f', 1, 64) + "h"
	}
	return strconv.FormatFloat(float64(s)/86400, 'f', 1, 64) + "d"
}
