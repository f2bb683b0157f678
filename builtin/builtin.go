// Package builtin embeds workload logs so that hpcwl runs with nothing to
// download. Each log is addressable as "builtin:NAME" wherever a trace path
// is accepted.
//
// The logs come from the Parallel Workloads Archive (D. G. Feitelson,
// D. Tsafrir, D. Krakov, "Experience with using the Parallel Workloads
// Archive", JPDC 74(10), 2014); each file's header carries its site's
// acknowledgement.
package builtin

import (
	"embed"
	"fmt"
	"sort"
	"strings"
)

//go:embed *.swf.gz
var files embed.FS

// Prefix marks a trace name that refers to an embedded log.
const Prefix = "builtin:"

// logs maps each short name to its file.
var logs = map[string]string{
	"KTH-SP2": "KTH-SP2-1996-2.1-cln.swf.gz",
}

// Names returns the short names of the embedded logs, sorted.
func Names() []string {
	var ns []string
	for n := range logs {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Is reports whether name refers to an embedded log ("builtin:NAME").
func Is(name string) bool { return strings.HasPrefix(name, Prefix) }

// Open returns the gzipped bytes of the embedded log named "builtin:NAME" or
// "NAME", and the archive file name it was copied from.
func Open(name string) (data []byte, file string, err error) {
	short := strings.TrimPrefix(name, Prefix)
	for n, f := range logs {
		if strings.EqualFold(n, short) || f == short {
			b, err := files.ReadFile(f)
			return b, f, err
		}
	}
	return nil, "", fmt.Errorf("unknown built-in workload %q; available: %s%s",
		short, Prefix, strings.Join(Names(), ", "+Prefix))
}
