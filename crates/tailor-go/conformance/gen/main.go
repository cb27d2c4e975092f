// Command gen runs every case in cases.txt through Go's text/template and
// records the output, the partial output on error, and the error text in
// cases.json. Run it from the crate directory:
//
//	go run conformance/gen/main.go conformance/cases.txt conformance/cases.json
//
// cases.txt format: each case starts with a line "=== NAME". Header lines
// follow until a line "---":
//
//	data: JSON          dot (default: the DEFAULT_DATA object below)
//	missingkey: VALUE   Option("missingkey=VALUE")
//	strmap              decode data as map[string]string (KubeStellar)
//	tname: NAME         template name (default "T")
//	keepnl              keep the newline that ends the template text
//
// The template text runs to the next "===" line; its final newline is
// dropped unless keepnl is given.
package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"text/template"
	"unicode/utf8"
)

const defaultData = `{
 "s": "hello", "e": "", "n": 42, "z": 0, "neg": -7, "f": 3.5, "fz": 0.0, "fneg": -2.25,
 "t": true, "fa": false, "nil": null,
 "list": [1, 2, 3], "strs": ["a", "b", "c"], "empty": [], "mixed": [1, "a", null, true, 2.5],
 "m": {"a": 1, "b": "two", "c": null}, "em": {},
 "nested": {"x": {"y": {"z": "deep"}}},
 "objs": [{"name": "a", "v": 1}, {"name": "b", "v": 2}, {"name": "c", "v": 3}],
 "big": 1e21, "small": 1e-7, "html": "<a href=\"x\">&'</a>", "uni": "héllo, 世界",
 "url": "a b&c=d/e?f", "tab": "a\tb\nc", "pct": "100%", "num": "42",
 "matrix": [[1, 2], [3, 4]], "lists": {"xs": [10, 20], "ys": []}
}`

type Case struct {
	Name       string          `json:"name"`
	TName      string          `json:"tname"`
	Template   string          `json:"template"`
	Data       json.RawMessage `json:"data"`
	StrMap     bool            `json:"strmap,omitempty"`
	MissingKey string          `json:"missingkey,omitempty"`
	ParseError bool            `json:"parse_error,omitempty"`
	Out        string          `json:"out"`
	OutHex     string          `json:"out_hex,omitempty"`
	Err        string          `json:"err,omitempty"`
}

// convert turns decoded JSON into the Go values the Rust Value enum models:
// integers become int, other numbers float64, and slices have cap == len.
func convert(v any) any {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				return int(n)
			}
		}
		f, _ := strconv.ParseFloat(s, 64)
		return f
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = convert(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = convert(e)
		}
		return out
	}
	return v
}

func decode(raw string, strmap bool) (any, error) {
	if strmap {
		var m map[string]string
		err := json.Unmarshal([]byte(raw), &m)
		return m, err
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return convert(v), nil
}

func run(c *Case) error {
	data, err := decode(string(c.Data), c.StrMap)
	if err != nil {
		return fmt.Errorf("case %s: bad data: %v", c.Name, err)
	}
	t := template.New(c.TName)
	if c.MissingKey != "" {
		t = t.Option("missingkey=" + c.MissingKey)
	}
	t, err = t.Parse(c.Template)
	if err != nil {
		c.ParseError = true
		c.Err = err.Error()
		return nil
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		c.Err = err.Error()
	}
	out := buf.String()
	if utf8.ValidString(out) {
		c.Out = out
	} else {
		c.OutHex = hex.EncodeToString(buf.Bytes())
	}
	return nil
}

func parseCases(path string) ([]*Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cases []*Case
	var cur *Case
	var body []string
	inHeader, keepnl := false, false
	flush := func() {
		if cur == nil {
			return
		}
		text := strings.Join(body, "\n")
		if keepnl {
			text += "\n"
		}
		cur.Template = text
		cases = append(cases, cur)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "=== ") {
			flush()
			cur = &Case{Name: strings.TrimPrefix(line, "=== "), TName: "T", Data: json.RawMessage(defaultData)}
			body, inHeader, keepnl = nil, true, false
			continue
		}
		if cur == nil {
			continue // comments before the first case
		}
		if inHeader {
			switch {
			case line == "---":
				inHeader = false
			case strings.HasPrefix(line, "data: "):
				cur.Data = json.RawMessage(strings.TrimPrefix(line, "data: "))
			case strings.HasPrefix(line, "missingkey: "):
				cur.MissingKey = strings.TrimPrefix(line, "missingkey: ")
			case strings.HasPrefix(line, "tname: "):
				cur.TName = strings.TrimPrefix(line, "tname: ")
			case line == "strmap":
				cur.StrMap = true
			case line == "keepnl":
				keepnl = true
			default:
				return nil, fmt.Errorf("case %s: bad header line %q", cur.Name, line)
			}
			continue
		}
		body = append(body, line)
	}
	flush()
	return cases, sc.Err()
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gen cases.txt cases.json")
		os.Exit(2)
	}
	cases, err := parseCases(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.Name] {
			fmt.Fprintf(os.Stderr, "duplicate case name %q\n", c.Name)
			os.Exit(1)
		}
		seen[c.Name] = true
		// Compact the data so cases.json stays readable.
		var buf bytes.Buffer
		if err := json.Compact(&buf, c.Data); err != nil {
			fmt.Fprintf(os.Stderr, "case %s: bad data: %v\n", c.Name, err)
			os.Exit(1)
		}
		c.Data = json.RawMessage(buf.String())
		if err := run(c); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	out, err := json.MarshalIndent(cases, "", " ")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(os.Args[2], append(out, '\n'), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("wrote %d cases\n", len(cases))
}
