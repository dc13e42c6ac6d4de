import { expect } from 'chai';
import { planetQuery } from '../../src/connectors/exoplanet-archive.ts';
import { coneQuery } from '../../src/connectors/gaia.ts';
import { objectQuery } from '../../src/connectors/simbad.ts';
import { adqlInteger, adqlNumber, adqlString, tapRows } from '../../src/connectors/tap.ts';

/** The query with every string literal replaced by `?`, and the literals' decoded values: its structure and its data apart. */
function split(query: string): { shape: string; literals: string[] } {
  const literals: string[] = [];
  const shape = query.replace(/'((?:[^']|'')*)'/g, (_match, body: string) => {
    literals.push(body.replace(/''/g, "'"));
    return '?';
  });
  return { shape, literals };
}

const HOSTILE = [
  "M 31' OR '1'='1",
  "x'); DROP TABLE basic; --",
  "a'\n UNION SELECT * FROM ident --",
  "'''",
  'back\\slash \' " %_',
];

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
    expect(tapRows('gaia', { metadata: [{ name: 'a' }, { name: 'b' }], data: [[1, 'x'], [2, null]] })).to.deep.equal([{ a: 1, b: 'x' }, { a: 2, b: null }]);
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
    const args = { hostStar: 'TRAPPIST-1', planetName: 'b', discoveryMethod: 'Transit', maxDistancePc: 20, minRadiusEarth: 0.5, maxRadiusEarth: 1.6, inHabitableZone: true, discoveredAfter: 2010, limit: 25 };
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
      "SELECT TOP 50 source_id, ra, dec, parallax, parallax_error, pmra, pmdec, phot_g_mean_mag, phot_bp_mean_mag, phot_rp_mean_mag, radial_velocity, teff_gspphot, " +
        "DISTANCE(POINT('ICRS', ra, dec), POINT('ICRS', 280, -60)) AS dist FROM gaiadr3.gaia_source " +
        "WHERE 1 = CONTAINS(POINT('ICRS', ra, dec), CIRCLE('ICRS', 280, -60, 0.0055)) AND phot_g_mean_mag <= 15 ORDER BY phot_g_mean_mag ASC",
    );
    expect(() => coneQuery({ ra: '280)) OR 1=1 --' as unknown as number, dec: 0, radiusDeg: 1, limit: 1 })).to.throw('not a finite number');
  });
});
