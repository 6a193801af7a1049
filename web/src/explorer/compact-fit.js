// compact (chrome-flags.js): the view shown, scaled down (a CSS transform) when it is taller than the
// frame less its caption, so that a figure on a slide or in a column never scrolls. Every view
// fits so: the links' and heatmap's drawings, the matrices' grid and the softmax's charts. A
// view may grow after its draw (the matrices fill in as the trace's steps arrive): each panel's
// size is watched.
//
//   const stop = fitToFrame(root);   // while root has the class compact; stop() on destroy

// Room kept below the caption (px): the panel's padding.
const MARGIN = 16;

function fit(root) {
  const panel = root.querySelector('[data-panel]:not([hidden])');
  if (!panel) return;
  const caption = root.querySelector('[data-role=figure-caption]').getBoundingClientRect().height;
  const room = window.innerHeight - caption - MARGIN;
  // The layout's height, which a transform leaves alone: the views lay out at the panel's full
  // width as always (their ResizeObservers see no change), and the picture is scaled.
  const natural = panel.offsetHeight;
  const scale = natural > room && room > 0 ? room / natural : 1;
  panel.style.transformOrigin = 'top center';
  panel.style.transform = scale < 1 ? `scale(${scale.toFixed(4)})` : '';
  // A transform takes no room away: the space below the scaled picture is given back.
  panel.style.marginBottom = scale < 1 ? `${-(natural * (1 - scale)).toFixed(1)}px` : '';
}

export function fitToFrame(root) {
  const observer = new ResizeObserver(() => fit(root));
  for (const panel of root.querySelectorAll('[data-panel]')) observer.observe(panel);
  const onResize = () => fit(root);
  window.addEventListener('resize', onResize);
  return () => {
    observer.disconnect();
    window.removeEventListener('resize', onResize);
  };
}
