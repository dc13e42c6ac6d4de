/**
 * The labelled set of the verify_references evaluation (hand-made). Real references copied
 * correctly (various styles) are `verified`; real references with one injected error in year,
 * pages, DOI (including DOIs of other papers), journal or first author are `corrected`, with the
 * field that was changed; fabricated references are `not_found`.
 */
export interface Labelled {
  reference: string;
  expected: 'verified' | 'corrected' | 'not_found' | 'uncertain';
  kind: 'correct' | 'wrong_year' | 'wrong_pages' | 'wrong_doi' | 'other_papers_doi' | 'wrong_journal' | 'wrong_first_author' | 'fabricated';
  /** The field reported as differing (for injected errors). */
  field?: 'year' | 'pages' | 'doi' | 'journal' | 'first_author';
}

export const labelled: Labelled[] = [
  // Real references, copied correctly.
  { kind: 'correct', expected: 'verified', reference: 'Myers, N., Mittermeier, R. A., Mittermeier, C. G., da Fonseca, G. A. B., & Kent, J. (2000). Biodiversity hotspots for conservation priorities. Nature, 403(6772), 853–858. https://doi.org/10.1038/35002501' },
  { kind: 'correct', expected: 'verified', reference: 'Ralser M, Heeren G, Breitenbach M, Lehrach H, Krobitsch S. Triose phosphate isomerase deficiency is caused by altered dimerization–not catalytic inactivity–of the mutant enzymes. PLoS One. 2006;1(1):e30. doi:10.1371/journal.pone.0000030' },
  { kind: 'correct', expected: 'verified', reference: 'A. M. Bran, S. Cox, O. Schilter, C. Baldassari, A. D. White, and P. Schwaller, "Augmenting large language models with chemistry tools," Nature Machine Intelligence, vol. 6, no. 5, pp. 525–535, 2024.' },
  { kind: 'correct', expected: 'verified', reference: 'Sadasivan, S., Pond, B.B., Pani, A.K., Qu, C., Jiao, Y. and Smeyne, R.J. (2012) \'Methylphenidate exposure induces dopamine neuron loss and activation of microglia in the basal ganglia of mice\', PLoS ONE, 7(3), p. e33693.' },
  { kind: 'correct', expected: 'verified', reference: 'Khan R, Srivastava R, Khan MA, Alam P, Abdin MZ, Mahmooduzzafar. Variation in oil content and fatty acid composition of the seed oil of Acacia species collected from the northwest zone of India. J Sci Food Agric. 2012;92(11):2310-5.' },
  { kind: 'correct', expected: 'verified', reference: 'Shi FH, Li H, Cui M, Zhang ZL, Gu ZC, Liu XY. Efficacy and safety of once-weekly semaglutide for the treatment of type 2 diabetes: a systematic review and meta-analysis of randomized controlled trials. Front Pharmacol. 2018;9:576.' },
  { kind: 'correct', expected: 'verified', reference: '@article{scalfani2016,\n  author = {Scalfani, Vincent F. and Williams, Antony J. and Tkachenko, Valery and Karapetyan, Karen and Pshenichnov, Alexey and Hanson, Robert M. and Liddie, Jahe M. and Bara, Jason E.},\n  title = {Programmatic conversion of crystal structures into {3D} printable files using {Jmol}},\n  journal = {Journal of Cheminformatics},\n  year = {2016},\n  volume = {8},\n  pages = {66},\n  doi = {10.1186/s13321-016-0181-z}\n}' },
  { kind: 'correct', expected: 'verified', reference: 'Makris, E. A., Responte, D. J., Paschos, N. K., Hu, J. C., & Athanasiou, K. A. (2014). Developing functional musculoskeletal tissues through hypoxia and lysyl oxidase-induced collagen cross-linking. Proceedings of the National Academy of Sciences, 111(45), E4832–E4841.' },
  { kind: 'correct', expected: 'verified', reference: 'T. Shinogi, H. Yamada, T. Hayashi, S. Tsuruoka, and T. Yoshikawa, "A test cost reduction method by test response and test vector overlapping for full-scan test architecture," in Proc. 14th Asian Test Symposium, 2005, pp. 366–371.' },
  { kind: 'correct', expected: 'verified', reference: 'Tabar E, Yakut H. Systematics of electric dipole excitations for odd-mass 233−239U isotopes. Nucl Phys A. 2021;1008:122138.' },
  { kind: 'correct', expected: 'verified', reference: 'Watson, J. D., and F. H. C. Crick. 1953. "Molecular Structure of Nucleic Acids: A Structure for Deoxyribose Nucleic Acid." Nature 171 (4356): 737–38.' },
  { kind: 'correct', expected: 'verified', reference: 'LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature, 521(7553), 436–444. https://doi.org/10.1038/nature14539' },
  { kind: 'correct', expected: 'verified', reference: 'K. He, X. Zhang, S. Ren, and J. Sun, "Deep residual learning for image recognition," in Proc. IEEE Conf. Computer Vision and Pattern Recognition (CVPR), 2016, pp. 770–778, doi: 10.1109/CVPR.2016.90.' },
  { kind: 'correct', expected: 'verified', reference: 'Lowry OH, Rosebrough NJ, Farr AL, Randall RJ. Protein measurement with the Folin phenol reagent. J Biol Chem. 1951;193(1):265-75.' },
  { kind: 'correct', expected: 'verified', reference: 'Altschul, S. F., Gish, W., Miller, W., Myers, E. W., & Lipman, D. J. (1990). Basic local alignment search tool. Journal of Molecular Biology, 215(3), 403–410.' },
  { kind: 'correct', expected: 'verified', reference: '@article{hirsch2005,\n  author = {Hirsch, J. E.},\n  title = {An index to quantify an individual\'s scientific research output},\n  journal = {Proceedings of the National Academy of Sciences},\n  volume = {102},\n  number = {46},\n  pages = {16569--16572},\n  year = {2005}\n}' },
  { kind: 'correct', expected: 'verified', reference: 'Ioannidis JPA (2005) Why most published research findings are false. PLoS Med 2(8): e124.' },
  { kind: 'correct', expected: 'verified', reference: 'Laemmli, U. K. (1970). Cleavage of structural proteins during the assembly of the head of bacteriophage T4. Nature, 227(5259), 680–685.' },
  { kind: 'correct', expected: 'verified', reference: 'Bradford MM. A rapid and sensitive method for the quantitation of microgram quantities of protein utilizing the principle of protein-dye binding. Anal Biochem. 1976;72:248-54.' },
  { kind: 'correct', expected: 'verified', reference: 'Sanger, F., Nicklen, S., & Coulson, A. R. (1977). DNA sequencing with chain-terminating inhibitors. Proceedings of the National Academy of Sciences, 74(12), 5463–5467.' },
  { kind: 'correct', expected: 'verified', reference: 'Skarlinski, M. D., & Quesnel, D. J. (2015). Effect of native oxide layers on copper thin-film tensile properties: A reactive molecular dynamics study. Journal of Applied Physics, 118(23). https://doi.org/10.1063/1.4938384' },
  // Real references with one injected error.
  { kind: 'wrong_year', expected: 'corrected', field: 'year', reference: 'Myers, N., Mittermeier, R. A., Mittermeier, C. G., da Fonseca, G. A. B., & Kent, J. (2002). Biodiversity hotspots for conservation priorities. Nature, 403(6772), 853–858.' },
  { kind: 'wrong_year', expected: 'corrected', field: 'year', reference: 'Altschul SF, Gish W, Miller W, Myers EW, Lipman DJ. Basic local alignment search tool. J Mol Biol. 1993;215(3):403-10.' },
  { kind: 'wrong_year', expected: 'corrected', field: 'year', reference: 'LeCun, Y., Bengio, Y., & Hinton, G. (2017). Deep learning. Nature, 521(7553), 436–444.' },
  { kind: 'wrong_pages', expected: 'corrected', field: 'pages', reference: 'Laemmli, U. K. (1970). Cleavage of structural proteins during the assembly of the head of bacteriophage T4. Nature, 227(5259), 690–695.' },
  { kind: 'wrong_pages', expected: 'corrected', field: 'pages', reference: 'Sanger F, Nicklen S, Coulson AR. DNA sequencing with chain-terminating inhibitors. Proc Natl Acad Sci U S A. 1977;74(12):5363-7.' },
  { kind: 'wrong_doi', expected: 'corrected', field: 'doi', reference: 'Hirsch, J. E. (2005). An index to quantify an individual\'s scientific research output. Proceedings of the National Academy of Sciences, 102(46), 16569–16572. https://doi.org/10.1073/pnas.0507655109' },
  { kind: 'other_papers_doi', expected: 'corrected', field: 'doi', reference: 'Ioannidis, J. P. A. (2005). Why most published research findings are false. PLoS Medicine, 2(8), e124. https://doi.org/10.1371/journal.pone.0000030' },
  { kind: 'other_papers_doi', expected: 'corrected', field: 'doi', reference: 'Bradford, M. M. (1976). A rapid and sensitive method for the quantitation of microgram quantities of protein utilizing the principle of protein-dye binding. Analytical Biochemistry, 72(1–2), 248–254. https://doi.org/10.1016/S0021-9258(19)52451-6' },
  { kind: 'wrong_journal', expected: 'corrected', field: 'journal', reference: 'Watson JD, Crick FHC. Molecular structure of nucleic acids: a structure for deoxyribose nucleic acid. Science. 1953;171(4356):737-8.' },
  { kind: 'wrong_journal', expected: 'corrected', field: 'journal', reference: 'Hirsch, J. E. (2005). An index to quantify an individual\'s scientific research output. Physical Review Letters, 102(46), 16569–16572.' },
  { kind: 'wrong_first_author', expected: 'corrected', field: 'first_author', reference: 'Smith, O. H., Rosebrough, N. J., Farr, A. L., & Randall, R. J. (1951). Protein measurement with the Folin phenol reagent. Journal of Biological Chemistry, 193(1), 265–275.' },
  { kind: 'wrong_first_author', expected: 'corrected', field: 'first_author', reference: 'Zhang K, He X, Ren S, Sun J. Deep residual learning for image recognition. In: 2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR). 2016:770-778.' },
  // Fabricated references (plausible titles, real-looking venues).
  { kind: 'fabricated', expected: 'not_found', reference: 'Andersson, K., & Lindqvist, P. (2019). Quantum coherence in avian magnetoreception under urban light pollution. Nature, 571(7764), 412–418.' },
  { kind: 'fabricated', expected: 'not_found', reference: 'Chen L, Okafor U, Martins R. Gut microbiome signatures predict response to semaglutide in adolescents. Lancet Diabetes Endocrinol. 2023;11(4):233-241.' },
  { kind: 'fabricated', expected: 'not_found', reference: 'R. Patel and M. Gruber, "Self-supervised transformers for seismic phase picking on planetary landers," IEEE Trans. Geosci. Remote Sens., vol. 61, pp. 1–14, 2022.' },
  { kind: 'fabricated', expected: 'not_found', reference: 'Dubois, M. (2018) \'Thermal tolerance of coral symbionts along the Mozambique Channel\', Marine Ecology Progress Series, 598, pp. 77–90.' },
  { kind: 'fabricated', expected: 'not_found', reference: 'Nakamura, H., Varga, E., & Osei, K. (2021). Lysyl oxidase inhibition reverses cartilage stiffening in aged murine knees. Proceedings of the National Academy of Sciences, 118(12), e2019977118. https://doi.org/10.1073/pnas.2019977999' },
  { kind: 'fabricated', expected: 'not_found', reference: 'Okonkwo, B. (2020). A meta-analysis of gamified feedback in secondary mathematics classrooms. Computers & Education, 151, 103842.' },
  { kind: 'fabricated', expected: 'not_found', reference: '@article{ferreira2017,\n  author = {Ferreira, Ana and Holm, Jonas},\n  title = {Triose phosphate isomerase as a biomarker of urban air pollution in honeybees},\n  journal = {Environmental Science and Technology},\n  year = {2017},\n  volume = {51},\n  pages = {1200--1209}\n}' },
  { kind: 'fabricated', expected: 'not_found', reference: 'Ivanova T, Brandt S. Deep reinforcement learning for protein folding on quantum annealers. J Mol Biol. 2020;432(9):2811-2826. doi:10.1016/j.jmb.2020.99999' },
  { kind: 'fabricated', expected: 'not_found', reference: 'Garcia, M. P., & Lindholm, E. (2016). Copper nanowire fatigue under cyclic hydrogen exposure. Journal of Applied Physics, 119(8), 085301.' },
  { kind: 'fabricated', expected: 'not_found', reference: 'Wójcik, A., Tanaka, Y., & Mbeki, S. (2024). Large language model agents for retrosynthesis planning in undergraduate laboratories. Journal of Chemical Education, 101(3), 901–910.' },
];
