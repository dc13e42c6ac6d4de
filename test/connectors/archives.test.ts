import { expect } from 'chai';
import * as europeana from '../../src/connectors/europeana.ts';
import * as loc from '../../src/connectors/loc.ts';
import { describeRecordings, fixture, recording } from './recordings.ts';

// No real loc.gov recording exists (its folder under test/recordings is absent; see test/recordings/README.md):
// its fixture is hand-made from the documented format. Europeana's is a real answer of 2015 (test/recordings/europeana/README.md).

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

const EUROPEANA_2015 = 'search-mona-lisa-2015-api-v2.json';
/** The key the 2015 recording was made with, echoed in its apikey, and in every item's guid and link. */
const RECORDED_KEY = 'yF4xXWLcP';

describeRecordings('europeana', () => {
  const parsed = (type: loc.ArchiveType = 'any') => europeana.parseSearch(JSON.parse(recording('europeana', EUROPEANA_2015)), type);

  it('reads the 12 items of a real answer from their arrays, with totalResults as the match count', () => {
    const { total, items } = parsed();
    expect(total).to.equal(354);
    expect(items.map((item) => [item.nativeId, item.itemType, item.year])).to.deep.equal([
      ['03919/FCD38BDE7A03579F24BEDA5D157943B75BB36F11', 'image', undefined],
      ['92034/GVNRC_SFA03_SFA022800005', 'image', 1914],
      ['2023708/9B6BA5391C3EEEBC15BA8CE96B76253E353E5F59', 'image', undefined],
      ['2022026/11088_2FB13322_62CF_4C23_A4BF_836884EDCCB6', 'image', undefined],
      ['2022026/11088_0A1D9020_B94D_4A8E_BC60_978FA927B339', 'image', undefined],
      ['2022026/11088_6C53B727_FAAF_48D9_A081_A0B034CBF07E', 'image', undefined],
      ['08603/efg_censorshipcards_00041_FAA_CEN_191031_P1_pdf', 'text', undefined],
      [
        '2048011/Athena_Plus_ProvidedCHO_CulturaItaliaInternet_Culturale___biblioteca_nazionale_centrale___firenze_oai_www_internetculturale_it_metaoaicat_oai_bncf_firenze_sbn_it_21_FI0098_Pannunzio_CFI0673146',
        'image',
        undefined,
      ],
      ['2021651/ran__detail_aspx_xmldescid_14296690', 'image', 1919],
      ['2021651/ran__detail_aspx_xmldescid_14521128', 'image', 1968],
      ['04802/3F01774036ADF624097AB05C25B3AD0B0062E706', 'video', undefined],
      ['2023823/istituti_ProdottoDellaRicerca_html_cds_095_id_163357', 'text', undefined],
    ]);
  });

  it('reads an item with a year and a creator; the item link is the portal page, never the keyed API link or guid', () => {
    const { items } = parsed();
    expect(items[1]).to.deep.equal({
      nativeId: '92034/GVNRC_SFA03_SFA022800005',
      itemType: 'image',
      title:
        "Heren met snorren en bolhoeden hebben zich geschaard om de 'Mona Lisa', een van de beroemdste werken van Leonardo da Vinci (1452-1519). Het schilderij is, na lange afwezigheid, terug in het Louvre. Parijs, 1914.",
      date: '1914',
      year: 1914,
      place: undefined,
      creators: ['Fotograaf onbekend'],
      description: undefined,
      rights: 'http://www.europeana.eu/rights/rr-f/',
      thumbnailUrl:
        'http://europeanastatic.eu/api/image?uri=http%3A%2F%2Fresolver.kb.nl%2Fresolve%3Furn%3Durn%3Agvn%3ASFA03%3ASFA022800005%26role%3Dthumbnail&size=LARGE&type=IMAGE',
      itemUrl: 'https://www.europeana.eu/item/92034/GVNRC_SFA03_SFA022800005',
      provider: 'National Library of the Netherlands - Koninklijke Bibliotheek',
      collection: '92034_Ag_EU_TEL',
      language: ['nl'],
    });
    expect(JSON.stringify(items)).not.to.contain(RECORDED_KEY);
  });

  it('keeps every creator of an item, and an empty string in rights is skipped', () => {
    const poster = parsed().items[3]!;
    expect([poster.title, poster.creators, poster.rights, poster.provider]).to.deep.equal([
      'Weg mit den alten Rollen. AsF - SPD',
      [
        'ARE, Düsseldorf',
        'Sozialdemokratische Partei Deutschlands (SPD), Vorstand, Arbeitsgemeinschaft sozialdemokratischer Frauen (AsF)',
        'Druckhaus Deutz, Köln',
      ],
      'http://www.europeana.eu/rights/rr-r/',
      'Archiv der sozialen Demokratie (AdsD)',
    ]);
  });

  it('a TEXT item asked for as a newspaper is a newspaper; images and video keep their type', () => {
    expect(parsed('newspaper').items.map((item) => item.itemType)).to.deep.equal([
      'image',
      'image',
      'image',
      'image',
      'image',
      'image',
      'newspaper',
      'image',
      'image',
      'image',
      'video',
      'newspaper',
    ]);
  });

  it('reads a label field as the list of language maps it is: edmTimespanLabel of the 1919 soap wrapper', () => {
    const item = JSON.parse(recording('europeana', EUROPEANA_2015)).items[8];
    expect([item.title[0], europeana.firstLabel(item.edmTimespanLabel)]).to.deep.equal(['Wikkel Savon Mona Lisa', '1919']);
    expect(europeana.firstLabel(['Paris'])).to.equal('Paris');
  });
});

describe('europeana connector', () => {
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
