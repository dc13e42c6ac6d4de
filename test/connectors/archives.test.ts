import { expect } from 'chai';
import * as europeana from '../../src/connectors/europeana.ts';
import * as loc from '../../src/connectors/loc.ts';
import { fixture } from './recordings.ts';

// No real loc.gov or Europeana recording exists (their folders under test/recordings are absent; see test/recordings/README.md):
// these fixtures are hand-made from the documented formats.

describe('loc connector (hand-made fixture in the documented format)', () => {
  const parsed = () => loc.parseSearch(JSON.parse(fixture('loc', 'hand-made-newspaper-search.json')), 'any');

  it('reads pagination.of as the result count (pagination.total is the page count)', () => {
    expect(parsed().total).to.equal(5137);
  });

  it('reads a newspaper page: OCR text as the snippet, array fields, protocol-relative thumbnail made absolute', () => {
    expect(parsed().items[0]).to.deep.equal({
      nativeId: 'resource/sn83045462/1913-03-03/ed-1?sp=1',
      itemType: 'newspaper',
      title: 'Evening star. [volume] (Washington, D.C.) 1854-1972, March 03, 1913, Page 1, Image 1',
      date: '1913-03-03',
      year: 1913,
      place: 'washington',
      creators: ['w.d. wallach & hope'],
      description: undefined,
      snippet:
        'Hand-made test text in the documented shape: EVENING STAR. WASHINGTON. SUFFRAGE PARADE MARCHES UP PENNSYLVANIA AVENUE while thousands look on; the procession of women from every state passed the Treasury in the afternoon.',
      rights: 'No known restrictions on publication.',
      thumbnailUrl: 'https://tile.loc.gov/image-services/iiif/service:ndnp:dlc:batch_dlc_test:data:sn83045462:1913030301:0001/full/pct:6.25/0/default.jpg',
      itemUrl: 'https://www.loc.gov/resource/sn83045462/1913-03-03/ed-1/?sp=1&q=suffrage+parade',
      provider: 'Library of Congress',
      collection: 'evening star (washington, d.c.) 1854-1972',
      language: ['english'],
    });
  });

  it('reads a photo as an image with its description', () => {
    const photo = parsed().items[1]!;
    expect([photo.nativeId, photo.itemType, photo.year, photo.description, photo.snippet, photo.collection]).to.deep.equal([
      'item/2014690000',
      'image',
      1913,
      'Hand-made test text: photograph of the suffrage parade, Washington, D.C.',
      undefined,
      'bain collection',
    ]);
  });

  it('asks the endpoint of the type with fo=json, only results and pagination, and the year range', () => {
    expect(loc.ENDPOINTS).to.deep.equal({
      newspaper: '/collections/chronicling-america/',
      image: '/photos/',
      manuscript: '/manuscripts/',
      map: '/maps/',
      any: '/search/',
    });
    expect(loc.searchParams({ query: 'suffrage parade', type: 'newspaper', dateFrom: 1913, dateTo: 1914, limit: 10 })).to.deep.equal({
      q: 'suffrage parade',
      fo: 'json',
      at: 'results,pagination',
      c: 10,
      sp: 1,
      dates: '1913/1914',
    });
  });
});

describe('europeana connector (hand-made fixture in the documented format)', () => {
  const parsed = () => europeana.parseSearch(JSON.parse(fixture('europeana', 'hand-made-search.json')), 'any');

  it('reads items from their arrays; the item link is the portal page, never the keyed API link or the guid', () => {
    const { total, items } = parsed();
    expect(total).to.equal(1967);
    expect(items[0]).to.deep.equal({
      nativeId: '9200000/test_1913_0001',
      itemType: 'image',
      title: 'Suffrage procession, London',
      date: '1913',
      year: 1913,
      place: 'United Kingdom',
      creators: ['Hand-made Photographer'],
      description: 'Hand-made test text in the documented shape: suffragettes marching in London, 1913.',
      rights: 'http://creativecommons.org/publicdomain/mark/1.0/',
      thumbnailUrl: 'https://api.europeana.eu/thumbnail/v2/url.json?uri=https%3A%2F%2Fexample-library.test%2F1913-0001.jpg&type=IMAGE',
      itemUrl: 'https://www.europeana.eu/item/9200000/test_1913_0001',
      provider: 'Hand-made Test Library',
      collection: '9200000_Ag_Test_Photographs',
      language: ['en'],
    });
    expect(JSON.stringify(items)).not.to.contain('HAND-MADE-KEY');
  });

  it('a TEXT item asked for as a newspaper is a newspaper', () => {
    const items = europeana.parseSearch(JSON.parse(fixture('europeana', 'hand-made-search.json')), 'newspaper').items;
    expect(items.map((item) => item.itemType)).to.deep.equal(['image', 'newspaper']);
  });

  it('success:false is an error even on a 200', () => {
    expect(() => europeana.parseSearch({ apikey: 'x', success: false, error: 'Invalid query' }, 'any')).to.throw(
      'europeana answered with an error: Invalid query',
    );
  });

  it('pushes the type and year filters down as repeated qf parameters', () => {
    expect(europeana.searchParams({ query: 'suffrage', type: 'map', dateFrom: 1900, limit: 500 }).toString()).to.equal(
      'query=suffrage&rows=100&profile=standard&qf=TYPE%3AIMAGE&qf=YEAR%3A%5B1900+TO+*%5D',
    );
  });
});
