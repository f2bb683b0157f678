package platform

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/hpcwl/hpcwl/internal/inputlimit"
)

// ReadSlurmConf reads the partitions of a Slurm configuration file
// (slurm.conf): NodeName lines give each node's CPUs (CPUs=, else
// Sockets x CoresPerSocket x ThreadsPerCore, else 1; NodeName=DEFAULT sets
// defaults for the lines after it), PartitionName lines the nodes of each
// partition (Nodes=, a host list such as node[01-16,20],gpu1, or ALL).
// Partitions are numbered 1, 2, ... in the order of the file (see
// [Platform.Renumber] to follow a log's header instead), at speed 1. Other
// lines and keys are ignored.
func ReadSlurmConf(r io.Reader, name string) (*Platform, error) {
	type node struct{ cpus int }
	nodes := map[string]node{}
	var order []string
	defCPUs := 0
	var defNode map[string]string
	defPart := map[string]string{}
	type part struct {
		name  string
		nodes string
		line  int
	}
	var parts []part
	sc := bufio.NewScanner(inputlimit.Lines(r, name, inputlimit.MaxLine))
	sc.Buffer(nil, inputlimit.MaxLine+1)
	line := 0
	perr := func(key, format string, a ...any) error {
		return &ParseError{File: name, Line: line, Key: key, Err: fmt.Errorf(format, a...)}
	}
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		kv := map[string]string{}
		var first string
		for _, f := range strings.Fields(text) {
			k, v, ok := strings.Cut(f, "=")
			if !ok {
				continue
			}
			k = strings.ToLower(k)
			if first == "" {
				first = k
			}
			kv[k] = v
		}
		switch first {
		case "nodename":
			get := func(k string) string {
				if v, ok := kv[k]; ok {
					return v
				}
				return defNode[k]
			}
			cpus := 1
			if v := get("cpus"); v != "" {
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 {
					return nil, perr("CPUs", "%q: expected a whole number >= 1", v)
				}
				cpus = n
			} else if get("sockets") != "" || get("corespersocket") != "" || get("threadspercore") != "" {
				cpus = 1
				for _, k := range []string{"sockets", "corespersocket", "threadspercore"} {
					if v := get(k); v != "" {
						n, err := strconv.Atoi(v)
						if err != nil || n < 1 {
							return nil, perr(k, "%q: expected a whole number >= 1", v)
						}
						cpus *= n
					}
				}
			} else if defCPUs > 0 {
				cpus = defCPUs
			}
			if strings.EqualFold(kv["nodename"], "DEFAULT") {
				defNode = kv
				defCPUs = cpus
				continue
			}
			hosts, err := expandHosts(kv["nodename"])
			if err != nil {
				return nil, perr("NodeName", "%v", err)
			}
			for _, h := range hosts {
				if _, dup := nodes[h]; !dup {
					order = append(order, h)
				}
				nodes[h] = node{cpus: cpus}
			}
		case "partitionname":
			if strings.EqualFold(kv["partitionname"], "DEFAULT") {
				for k, v := range kv {
					defPart[k] = v
				}
				continue
			}
			ns, ok := kv["nodes"]
			if !ok {
				ns = defPart["nodes"]
			}
			if ns == "" {
				return nil, perr("Nodes", "partition %s names no nodes", kv["partitionname"])
			}
			parts = append(parts, part{kv["partitionname"], ns, line})
		}
	}
	if err := sc.Err(); err != nil {
		var le *inputlimit.Error
		if errors.As(err, &le) {
			return nil, err
		}
		return nil, &ParseError{File: name, Err: err}
	}
	if len(parts) == 0 {
		return nil, &ParseError{File: name, Err: errors.New("no PartitionName line")}
	}
	p := &Platform{Source: name}
	for i, q := range parts {
		line = q.line
		var hosts []string
		if strings.EqualFold(q.nodes, "ALL") {
			hosts = order
		} else {
			h, err := expandHosts(q.nodes)
			if err != nil {
				return nil, perr("Nodes", "%v", err)
			}
			hosts = h
		}
		procs := 0
		for _, h := range hosts {
			n, ok := nodes[h]
			if !ok {
				return nil, perr("Nodes", "partition %s names node %s, which no NodeName line describes", q.name, h)
			}
			procs += n.cpus
		}
		p.Partitions = append(p.Partitions, Partition{ID: i + 1, Name: q.name, Procs: procs, Speed: 1, SizeFrom: "slurm.conf"})
	}
	return p, nil
}

// expandHosts expands a Slurm host list: "node[01-03,7],login" gives
// node01, node02, node03, node7, login (zero padding kept).
func expandHosts(list string) ([]string, error) {
	var out []string
	depth, start := 0, 0
	for i := 0; i <= len(list); i++ {
		if i < len(list) {
			switch list[i] {
			case '[':
				depth++
				continue
			case ']':
				depth--
				if depth < 0 {
					return nil, fmt.Errorf("host list %q: unbalanced ']'", list)
				}
				continue
			case ',':
				if depth > 0 {
					continue
				}
			default:
				continue
			}
		}
		if depth != 0 {
			return nil, fmt.Errorf("host list %q: unbalanced '['", list)
		}
		if item := list[start:i]; item != "" {
			hs, err := expandOne(item)
			if err != nil {
				return nil, fmt.Errorf("host list %q: %v", list, err)
			}
			out = append(out, hs...)
		}
		start = i + 1
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty host list")
	}
	return out, nil
}

// expandOne expands one host pattern with bracketed ranges.
func expandOne(item string) ([]string, error) {
	open := strings.IndexByte(item, '[')
	if open < 0 {
		return []string{item}, nil
	}
	end := strings.IndexByte(item[open:], ']')
	if end < 0 {
		return nil, fmt.Errorf("%q: missing ']'", item)
	}
	end += open
	prefix, body, rest := item[:open], item[open+1:end], item[end+1:]
	tails, err := expandOne(rest)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range strings.Split(body, ",") {
		lo, hi, isRange := strings.Cut(r, "-")
		if !isRange {
			hi = lo
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || a > b || a < 0 {
			return nil, fmt.Errorf("%q: bad range %q", item, r)
		}
		if b-a > 1_000_000 {
			return nil, fmt.Errorf("%q: range %q too large", item, r)
		}
		width := len(lo)
		for n := a; n <= b; n++ {
			num := strconv.Itoa(n)
			for len(num) < width {
				num = "0" + num
			}
			for _, t := range tails {
				out = append(out, prefix+num+t)
			}
		}
	}
	return out, nil
}

// Renumber gives the partitions the numbers a log's header uses for their
// names ("Partition: N name" lines; see [HeaderNames]), so that SWF field 16
// finds them. Partitions whose name the header does not list keep their
// number unless another partition takes it, which is an error.
func (p *Platform) Renumber(names map[int]string) error {
	byName := map[string]int{}
	for id, n := range names {
		if n != "" {
			byName[strings.ToLower(n)] = id
		}
	}
	for i := range p.Partitions {
		if id, ok := byName[strings.ToLower(p.Partitions[i].Name)]; ok {
			p.Partitions[i].ID = id
		}
	}
	return p.check()
}
