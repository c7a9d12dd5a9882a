//! The lesson page's style sheet (added when the page starts: the player's is in index.html).

pub const STYLE: &str = ".lesson-page{max-width:1400px;margin:0 auto;padding:.5rem 1rem}\
.lesson-top{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}\
.lesson-top h1{font-size:1.2rem;margin:.3rem 0}.lesson-top .spacer{flex:1}\
.lesson-main{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}\
.lesson-main>.lesson-panel{flex:1 1 300px;max-width:440px}\
.lesson-stage{flex:3 1 480px;min-width:0}\
@media (min-width:700px){.lesson-page:not(.embed) .lesson-stage .stage{height:min(56vh,32rem)}}\
@media (max-width:699px){.lesson-stage .stage{flex:none;min-height:0;max-height:60vh}.lesson-stage .stage svg.graph{position:relative;height:auto}}\
.lesson-stage .preset{margin:.2rem 0;color:var(--muted)}\
.lesson-page:not(.embed) .lesson-stage .narration ol{height:auto;max-height:13rem}\
.lesson-controls{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:.4rem 0}\
.lesson-controls a{color:var(--accent)}\
.lesson-panel{border:1px solid var(--line);border-radius:6px;padding:.5rem .75rem;background:var(--panel)}\
.lp-head{display:flex;flex-wrap:wrap;gap:.25rem .6rem;align-items:center}\
.lp-dots{display:flex;gap:3px;list-style:none;margin:0;padding:0}\
.lp-dots li{width:9px;height:9px;border-radius:50%;border:1px solid var(--line-strong)}\
.lp-dots li.now{background:var(--accent)}.lp-dots li.right{background:var(--ok)}.lp-dots li.wrong{background:var(--bad)}\
.lp-count{color:var(--muted);font-size:.85rem}\
.lesson-panel fieldset{border:1px solid var(--line);border-radius:4px;margin:.5rem 0;padding:.3rem .6rem}\
.lesson-panel legend{font-weight:600;padding:0 .2rem}\
.lesson-panel label{display:block;padding:.2rem 0;cursor:pointer}\
.lesson-panel label.answer{font-weight:600}\
.lesson-panel fieldset.words label{display:inline-block;margin:0 .9rem 0 0}\
.lp-feedback[data-correct=true]{color:var(--ok)}.lp-feedback[data-correct=false]{color:var(--bad)}\
.lp-actions{display:flex;gap:.5rem;flex-wrap:wrap}\
.lesson-page.embed{padding:.25rem}.lesson-page.embed .lesson-top h1{font-size:1rem;margin:0}\
.lesson-page.embed .lesson-main{gap:.5rem}.lesson-page.embed .lesson-main>.lesson-panel{flex:1 1 230px;padding:.35rem .5rem}\
.lesson-page.embed .lesson-stage{flex:1.4 1 300px}.lesson-page.embed .lesson-stage .preset{display:none}\
.lesson-error{color:var(--bad);font-weight:600}\
.lesson-teacher{font-size:.85rem}.lesson-teacher summary{cursor:pointer;color:var(--muted)}\
.lesson-teacher>div{display:flex;flex-wrap:wrap;gap:.3rem 1rem;align-items:center;margin-top:.3rem}\
@media (min-width:700px){.lesson-teacher{position:relative}.lesson-teacher>div{position:absolute;right:0;top:100%;z-index:5;\
background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.5rem .7rem;width:max-content;max-width:min(40rem,90vw)}}\
.lesson-teacher a{color:var(--accent)}.lesson-file input{font-size:.8rem;max-width:14rem}\
.lesson-problems{color:var(--bad);font-size:.9rem;margin:.3rem 0}.lesson-problems ul{margin:.2rem 0;padding-left:1.2rem}\
.lms-notice{color:var(--muted);font-size:.85rem;margin:.2rem 0}";
