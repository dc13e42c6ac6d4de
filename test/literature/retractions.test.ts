import { expect } from 'chai';
import { parseNotices, parseWork } from '../../src/connectors/crossref.ts';
import { noticesOf, SEVERITY, statusOf } from '../../src/tools/check-retractions.ts';

/** Hand-made: the documented shape of Crossref `updated-by` entries (no real retraction was recorded). */
const work = {
  DOI: '10.1021/am300292v',
  title: ['A retracted paper'],
  'updated-by': [
    { DOI: '10.1021/am300292v', type: 'new_version', label: 'New version', source: 'publisher', updated: { 'date-parts': [[2012, 1, 1]] } },
    { DOI: '10.1021/erratum.1', type: 'erratum', label: 'Erratum', source: 'publisher', updated: { 'date-parts': [[2012, 6, 1]] } },
    { DOI: '10.1021/concern.1', type: 'expression_of_concern', label: 'Expression of Concern', source: 'publisher', updated: { 'date-parts': [[2013, 2, 3]] } },
    {
      DOI: '10.1021/am300292v.retraction',
      type: 'retraction',
      label: 'Retraction',
      source: 'retraction-watch',
      'record-id': 20946,
      updated: { 'date-parts': [[2014, 5, 6]] },
    },
  ],
};

describe('retraction notices', () => {
  it('reads retractions (Retraction Watch included), errata as corrections, concerns apart, and skips self-referencing new versions', () => {
    expect(parseNotices(work).map((notice) => [notice.type, notice.doi, notice.date, notice.source])).to.deep.equal([
      ['correction', '10.1021/erratum.1', '2012-06-01', 'publisher'],
      ['expression_of_concern', '10.1021/concern.1', '2013-02-03', 'publisher'],
      ['retraction', '10.1021/am300292v.retraction', '2014-05-06', 'retraction-watch'],
    ]);
    expect(parseWork(work)!.isRetracted).to.equal(true);
  });
  it('an erratum or an expression of concern alone is never a retraction', () => {
    const erratum = parseWork({ ...work, 'updated-by': [work['updated-by'][1]] })!;
    const concern = parseWork({ ...work, 'updated-by': [work['updated-by'][2]] })!;
    expect([erratum.isRetracted, statusOf(erratum.notices!, true), concern.isRetracted, statusOf(concern.notices!, true)]).to.deep.equal([
      false,
      'corrected',
      false,
      'expression_of_concern',
    ]);
  });
  it('the most serious notice decides the status', () => {
    const notices = parseNotices(work).sort((a, b) => SEVERITY.indexOf(a.type) - SEVERITY.indexOf(b.type));
    expect([statusOf(notices, true), statusOf([], true), statusOf([], false), statusOf([{ type: 'withdrawal' }], true)]).to.deep.equal([
      'retracted',
      'no_notice',
      'not_found',
      'withdrawn',
    ]);
  });
  it('a title the index marks "RETRACTED:" is a retraction even without a relation; a "Retraction and …" title is not', () => {
    const marked = parseWork({
      DOI: '10.1016/s0140-6736(97)11096-0',
      title: ['RETRACTED: Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children'],
    })!;
    const plain = parseWork({ DOI: '10.1000/x', title: ['Retraction and reproducibility in clinical research'] })!;
    expect([statusOf(noticesOf(marked, undefined), true), noticesOf(marked, undefined)[0]?.source, statusOf(noticesOf(plain, undefined), true)]).to.deep.equal([
      'retracted',
      'crossref',
      'no_notice',
    ]);
  });
});
