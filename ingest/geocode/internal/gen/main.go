// Command gen builds ingest/geocode's place index from the Natural Earth
// boundaries that github.com/sams96/rgeo ships (they come from the Go module
// proxy like any module), and writes rgeo's own answers for the agreement
// test. It is the only code that links rgeo; `go generate ./ingest/geocode`
// runs it with the defaults, which make the committed places.idx.gz.
//
//	go run ./internal/gen -o places.idx.gz                    # the index (a minute)
//	go run ./internal/gen -answers testdata/rgeo_answers.tsv  # rgeo's answers (minutes)
//
// The other flags are for measuring other trade-offs between size, lookup
// time and agreement (docs/performance.md, "Reverse geocoding").
package main

import (
	"flag"
	"fmt"
	"log"

	"github.com/photoctl/photoctl/ingest/geocode/internal/polyindex"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("gen: ")
	opts := indexOptions{
		build:     polyindex.DefaultOptions,
		tolerance: map[string]float64{classRegion: 0, classCountry: 0, classCity: 0},
	}
	out := flag.String("o", "", "write the gzipped index to this file")
	answers := flag.String("answers", "", "write rgeo's answers for sample points to this file")
	flag.IntVar(&opts.build.LeafVertices, "leaf", opts.build.LeafVertices, "split quadtree nodes whose chains have more vertices than this")
	flag.IntVar(&opts.build.MaxDepth, "depth", opts.build.MaxDepth, "split 1° cells at most this many times")
	for _, class := range []string{classRegion, classCountry, classCity} {
		flag.Func("simplify-"+class, fmt.Sprintf("simplify %ss within this many degrees (default %g)", class, opts.tolerance[class]),
			func(s string) error {
				var v float64
				_, err := fmt.Sscan(s, &v)
				opts.tolerance[class] = v
				return err
			})
	}
	flag.StringVar(&opts.only, "only", "", "index only this dataset (Provinces10 or Cities10)")
	flag.Parse()
	if *out == "" && *answers == "" {
		log.Fatal("nothing to do: give -o and/or -answers")
	}
	if *out != "" {
		if err := writeIndex(*out, opts); err != nil {
			log.Fatal(err)
		}
	}
	if *answers != "" {
		if err := writeAnswers(*answers); err != nil {
			log.Fatal(err)
		}
	}
}
