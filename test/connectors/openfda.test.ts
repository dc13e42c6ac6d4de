import { expect } from 'chai';
import { eventSearch, parseCounts, parseLabels, pickLabel } from '../../src/connectors/openfda.ts';
import { reasonFromBody } from '../../src/upstream/body.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { describeRecordings, fixture, recording } from './recordings.ts';

const read = (file: string) => parseJsonKeepingBigIntegers(recording('openfda', file));

describeRecordings('openfda', () => {
  it('reads adverse-event report counts per term (count answers have no meta.results)', () => {
    expect(parseCounts(read('event-count-reactionmeddrapt-pembrolizumab-limit1.json'))).to.deep.equal([
      { term: 'MALIGNANT NEOPLASM PROGRESSION', report_count: 12016 },
    ]);
  });
  it('reads the Keytruda label search and picks the label named exactly, not the newest combination product', () => {
    const labels = parseLabels(read('label-search-keytruda-minimized.json'));
    expect(labels.map((label) => [label.setId, label.brandNames, label.hasBoxedWarning])).to.deep.equal([
      ['097d166f-b73b-41d3-9b37-7653cd2a0c41', ['KEYTRUDA QLEX'], false],
      ['9333c79b-d487-4538-a9f0-71b91a02b287', ['KEYTRUDA'], false],
    ]);
    expect(pickLabel(labels, ['KEYTRUDA'])!.setId).to.equal('9333c79b-d487-4538-a9f0-71b91a02b287');
    expect(pickLabel(labels, ['nothing else'])!.setId).to.equal('097d166f-b73b-41d3-9b37-7653cd2a0c41');
  });
  it('has the reasons of its error envelope (the 404 "No matches found!" is read as zero reports)', () => {
    expect(reasonFromBody('application/json', recording('openfda', 'error-404-no-matches-found.json'))).to.equal('No matches found!');
    expect(reasonFromBody('application/json', recording('openfda', 'error-500-server-error-query-syntax.json'))).to.equal('Check your request and try again');
  });
});

describe('openfda connector', () => {
  it('reads indications and the boxed warning of a full label (hand-made, documented format)', () => {
    expect(parseLabels(JSON.parse(fixture('openfda', 'hand-made-label-pembrolizumab.json')))).to.deep.equal([
      {
        setId: '9333c79b-d487-4538-a9f0-71b91a02b287',
        effectiveDate: '2025-09-18',
        indications:
          '1 INDICATIONS AND USAGE Hand-made test text: KEYTRUDA is a programmed death receptor-1 (PD-1)-blocking antibody indicated for the treatment of several cancers.',
        hasBoxedWarning: false,
        brandNames: ['KEYTRUDA'],
        genericNames: ['PEMBROLIZUMAB'],
      },
    ]);
  });
  it('keeps a quote in a name from breaking the search', () => {
    expect(eventSearch('a"b')).to.equal(
      '(patient.drug.openfda.generic_name:"a b" OR patient.drug.openfda.brand_name:"a b" OR patient.drug.medicinalproduct:"a b")',
    );
  });
});
