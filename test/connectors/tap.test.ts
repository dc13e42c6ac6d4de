import { expect } from 'chai';
import { planetQuery } from '../../src/connectors/exoplanet-archive.ts';
import { coneQuery } from '../../src/connectors/gaia.ts';
import { objectQuery } from '../../src/connectors/simbad.ts';
import { adqlInteger, adqlNumber, adqlString, tapAnswerRows, tapRows } from '../../src/connectors/tap.ts';

/** The query with every string literal replaced by `?`, and the literals' decoded values: its structure and its data apart. */
function split(query: string): { shape: string; literals: string[] } {
  const literals: string[] = [];
  const shape = query.replace(/'((?:[^']|'')*)'/g, (_match, body: string) => {
    literals.push(body.replace(/''/g, "'"));
    return '?';
  });
  return { shape, literals };
}

const HOSTILE = ["M 31' OR '1'='1", "x'); DROP TABLE basic; --", "a'\n UNION SELECT * FROM ident --", "'''", 'back\\slash \' " %_'];

describe('ADQL literals', () => {
  it('quote strings with their quotes doubled and control characters dropped', () => {
    expect(adqlString("O'Brien")).to.equal("'O''Brien'");
    expect(adqlString('a\nb\tc\u0000')).to.equal("'abc'");
  });
  it('write numbers only from finite numbers', () => {
    expect([adqlNumber(280), adqlNumber(-59.5), adqlNumber(1e-7), adqlInteger(50)]).to.deep.equal(['280', '-59.5', '1E-7', '50']);
    expect(() => adqlNumber(Number.NaN)).to.throw('not a finite number');
    expect(() => adqlNumber('1) OR (1=1' as unknown as number)).to.throw('not a finite number');
    expect(() => adqlInteger(2.5)).to.throw('not an integer');
  });
  it('read both TAP JSON layouts into row objects', () => {
    expect(
      tapRows('gaia', {
        metadata: [{ name: 'a' }, { name: 'b' }],
        data: [
          [1, 'x'],
          [2, null],
        ],
      }),
    ).to.deep.equal([
      { a: 1, b: 'x' },
      { a: 2, b: null },
    ]);
    expect(tapRows('exoplanet-archive', [{ pl_name: 'b' }])).to.deep.equal([{ pl_name: 'b' }]);
    expect(() => tapRows('simbad', { error: 'x' })).to.throw('simbad answered with JSON that is not a TAP result table');
  });
});

describe('no argument can change the structure of a TAP query', () => {
  it('SIMBAD: a hostile name stays one literal of the WHERE clause', () => {
    const benign = split(objectQuery('M 31')).shape;
    for (const name of HOSTILE) {
      const { shape, literals } = split(objectQuery(name));
      expect(shape).to.equal(benign);
      expect(literals).to.deep.equal([name.trim().replace(/[\u0000-\u001f]/g, '')]);
    }
  });
  it('Exoplanet Archive: hostile host, planet and method strings stay literals; numbers stay numbers', () => {
    const args = {
      hostStar: 'TRAPPIST-1',
      planetName: 'b',
      discoveryMethod: 'Transit',
      maxDistancePc: 20,
      minRadiusEarth: 0.5,
      maxRadiusEarth: 1.6,
      inHabitableZone: true,
      discoveredAfter: 2010,
      limit: 25,
    };
    const benign = split(planetQuery(args)).shape;
    expect(benign).to.equal(
      'SELECT TOP 25 pl_name, hostname, discoverymethod, disc_year, pl_orbper, pl_rade, pl_bmasse, pl_eqt, pl_insol, sy_dist, disc_refname FROM pscomppars ' +
        'WHERE hostname = ? AND pl_name LIKE ? AND discoverymethod = ? AND sy_dist <= 20 AND pl_rade >= 0.5 AND pl_rade <= 1.6 ' +
        'AND pl_insol >= 0.25 AND pl_insol <= 1.7 AND disc_year > 2010 ORDER BY pl_name',
    );
    for (const text of HOSTILE) {
      const { shape, literals } = split(planetQuery({ ...args, hostStar: text, planetName: text, discoveryMethod: text }));
      const clean = text.replace(/[\u0000-\u001f]/g, '');
      expect(shape).to.equal(benign);
      expect(literals).to.deep.equal([clean, `%${clean}%`, clean]);
    }
  });
  it('Exoplanet Archive: without filters there is no WHERE, and the habitable zone is insolation 0.25 to 1.7', () => {
    expect(planetQuery({ limit: 5 })).to.equal(
      'SELECT TOP 5 pl_name, hostname, discoverymethod, disc_year, pl_orbper, pl_rade, pl_bmasse, pl_eqt, pl_insol, sy_dist, disc_refname FROM pscomppars ORDER BY pl_name',
    );
    expect(planetQuery({ limit: 5, inHabitableZone: true })).to.contain('WHERE pl_insol >= 0.25 AND pl_insol <= 1.7 ORDER BY');
    expect(planetQuery({ limit: 5, inHabitableZone: false })).not.to.contain('pl_insol >=');
  });
  it('Gaia: the cone is written from numbers only, brightest first', () => {
    expect(coneQuery({ ra: 280, dec: -60, radiusDeg: 0.0055, maxGMag: 15, limit: 50 })).to.equal(
      'SELECT TOP 50 source_id, ra, dec, parallax, parallax_error, pmra, pmdec, phot_g_mean_mag, phot_bp_mean_mag, phot_rp_mean_mag, radial_velocity, teff_gspphot, ' +
        "DISTANCE(POINT('ICRS', ra, dec), POINT('ICRS', 280, -60)) AS dist FROM gaiadr3.gaia_source " +
        "WHERE 1 = CONTAINS(POINT('ICRS', ra, dec), CIRCLE('ICRS', 280, -60, 0.0055)) AND phot_g_mean_mag <= 15 ORDER BY phot_g_mean_mag ASC",
    );
    expect(() => coneQuery({ ra: '280)) OR 1=1 --' as unknown as number, dec: 0, radiusDeg: 1, limit: 1 })).to.throw('not a finite number');
  });
});

describe('the VOTable reader of TAP answers', () => {
  const votable = (fields: string, rows: string, extra = '') =>
    `<?xml version="1.0"?>\n<VOTABLE version="1.4"><RESOURCE type="results">${extra}<TABLE>${fields}<DATA><TABLEDATA>${rows}</TABLEDATA></DATA></TABLE></RESOURCE></VOTABLE>`;

  it('types cells by FIELD datatype: empty and NaN are null, unsafe longs stay exact strings, predefined entities decoded once', () => {
    const text = votable(
      '<FIELD name="id" datatype="long"/><FIELD name="n" datatype="int"/><FIELD name="x" datatype="double"/><FIELD name="name" datatype="char" arraysize="*"/>',
      '<TR><TD>6636090334814214528</TD><TD>7</TD><TD>NaN</TD><TD>A&amp;amp;A &apos;x&apos;</TD></TR><TR><TD>12</TD><TD></TD><TD>-1.5E-3</TD><TD/></TR>',
    );
    expect(tapAnswerRows('gaia', text)).to.deep.equal([
      { id: '6636090334814214528', n: 7, x: null, name: "A&amp;A 'x'" },
      { id: 12, n: null, x: -0.0015, name: null },
    ]);
  });
  it("a QUERY_STATUS ERROR is the source's failure with its message", () => {
    const text = votable('', '', '<INFO name="QUERY_STATUS" value="ERROR">Incorrect ADQL query: Encountered "FORM"</INFO>');
    expect(() => tapAnswerRows('simbad', text)).to.throw('simbad reported a failed query: Incorrect ADQL query: Encountered "FORM"');
  });
  it('a BINARY serialisation is refused by name rather than read as no rows', () => {
    const text =
      '<VOTABLE><RESOURCE><TABLE><FIELD name="a" datatype="int"/><DATA><BINARY><STREAM encoding="base64">AAAA</STREAM></BINARY></DATA></TABLE></RESOURCE></VOTABLE>';
    expect(() => tapAnswerRows('gaia', text)).to.throw('gaia answered with a VOTable in the BINARY serialisation; only TABLEDATA is read');
  });
  it('never expands entities a document declares', () => {
    const text = `<!DOCTYPE VOTABLE [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>${votable('<FIELD name="s" datatype="char"/>', '<TR><TD>&b;</TD></TR>')}`;
    expect(tapAnswerRows('simbad', text)).to.deep.equal([{ s: '&b;' }]);
  });
  it('a body that is neither XML nor JSON is a bad body quoting its beginning', () => {
    expect(() => tapAnswerRows('gaia', 'ERROR: no such table')).to.throw(
      'gaia answered with a body that is neither a VOTable nor JSON, beginning "ERROR: no such table"',
    );
  });
});
