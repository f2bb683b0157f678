package platform

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hpcwl/hpcwl/internal/inputlimit"
)

// ParseError reports a platform file error with its position.
type ParseError struct {
	File string
	Line int    // 1-based, 0 when unknown
	Key  string // the field, e.g. "partitions[1].procs", or ""
	Err  error
}

// Error formats the error as "file: line N: key: cause".
func (e *ParseError) Error() string {
	s := e.File + ": "
	if e.Line > 0 {
		s += fmt.Sprintf("line %d: ", e.Line)
	}
	if e.Key != "" {
		s += e.Key + ": "
	}
	return s + e.Err.Error()
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }

// Read reads a platform file: a Slurm slurm.conf (recognised by its
// NodeName or PartitionName lines) or a YAML or JSON document such as
//
//	partitions:
//	  - id: 1          # the partition's number in SWF field 16
//	    name: batch    # optional
//	    procs: 1024
//	    speed: 1.5     # optional, relative to the traced machine; default 1
//
// Errors name the file, the line and the field.
func Read(r io.Reader, name string) (*Platform, error) {
	data, err := io.ReadAll(io.LimitReader(inputlimit.Lines(r, name, inputlimit.MaxLine), inputlimit.MaxParamFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > inputlimit.MaxParamFile {
		return nil, &ParseError{File: name, Err: fmt.Errorf("larger than %d bytes: %w", inputlimit.MaxParamFile, inputlimit.ErrTooLong)}
	}
	if isSlurmConf(data) {
		return ReadSlurmConf(bytes.NewReader(data), name)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &ParseError{File: name, Err: fmt.Errorf("not YAML, JSON or slurm.conf: %v", err)}
	}
	if len(doc.Content) == 0 {
		return nil, &ParseError{File: name, Err: errors.New("empty platform file")}
	}
	root := doc.Content[0]
	perr := func(n *yaml.Node, key, format string, a ...any) error {
		return &ParseError{File: name, Line: n.Line, Key: key, Err: fmt.Errorf(format, a...)}
	}
	if root.Kind != yaml.MappingNode {
		return nil, perr(root, "", `expected a mapping with the key "partitions"`)
	}
	p := &Platform{Source: name}
	var parts *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "partitions":
			parts = v
		default:
			return nil, perr(k, k.Value, `unknown key; expected "partitions"`)
		}
	}
	if parts == nil {
		return nil, perr(root, "partitions", "missing")
	}
	if parts.Kind != yaml.SequenceNode || len(parts.Content) == 0 {
		return nil, perr(parts, "partitions", "expected a non-empty list of partitions")
	}
	seen := map[int]int{}
	for i, n := range parts.Content {
		where := fmt.Sprintf("partitions[%d]", i)
		if n.Kind != yaml.MappingNode {
			return nil, perr(n, where, "expected a mapping with id, procs and optionally name and speed")
		}
		q := Partition{Speed: 1, SizeFrom: "platform file"}
		has := map[string]bool{}
		for j := 0; j+1 < len(n.Content); j += 2 {
			k, v := n.Content[j], n.Content[j+1]
			key := where + "." + k.Value
			has[k.Value] = true
			switch k.Value {
			case "id", "procs":
				x, err := strconv.Atoi(v.Value)
				if err != nil || v.Kind != yaml.ScalarNode || x < 1 || x > math.MaxInt32 {
					return nil, perr(v, key, "%q: expected a whole number >= 1", v.Value)
				}
				if k.Value == "id" {
					q.ID = x
				} else {
					q.Procs = x
				}
			case "name":
				if v.Kind != yaml.ScalarNode {
					return nil, perr(v, key, "expected a name")
				}
				q.Name = v.Value
			case "speed":
				x, err := strconv.ParseFloat(v.Value, 64)
				if err != nil || v.Kind != yaml.ScalarNode || !(x > 0) || math.IsInf(x, 0) {
					return nil, perr(v, key, "%q: expected a number > 0", v.Value)
				}
				q.Speed = x
			default:
				return nil, perr(k, key, "unknown key; expected id, name, procs or speed")
			}
		}
		for _, req := range []string{"id", "procs"} {
			if !has[req] {
				return nil, perr(n, where+"."+req, "missing")
			}
		}
		if prev, ok := seen[q.ID]; ok {
			return nil, perr(n, where+".id", "partition %d is already described at line %d", q.ID, prev)
		}
		seen[q.ID] = n.Line
		p.Partitions = append(p.Partitions, q)
	}
	if err := p.check(); err != nil {
		return nil, &ParseError{File: name, Err: err}
	}
	return p, nil
}

func isSlurmConf(data []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, inputlimit.MaxLine+1)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || l[0] == '#' {
			continue
		}
		low := strings.ToLower(l)
		if strings.HasPrefix(low, "nodename=") || strings.HasPrefix(low, "partitionname=") {
			return true
		}
	}
	return false
}
