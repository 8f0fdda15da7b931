import { useEffect, useRef, useState } from 'react';

/**
 * Whether an element's content is wider than the element (so it scrolls sideways), and whether it is scrolled
 * to its start or its end, measured from the real layout: on scroll, on window resize, and when it or its first child
 * changes size. A pixel of rounding is not overflow.
 */
export function useHorizontalOverflow<E extends HTMLElement>() {
  const ref = useRef<E>(null);
  const [overflows, setOverflows] = useState(false);
  const [atEnd, setAtEnd] = useState(true);
  const [atStart, setAtStart] = useState(true);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const hidden = element.scrollWidth - element.clientWidth;
      setOverflows(hidden > 1);
      setAtEnd(element.scrollLeft >= hidden - 1);
      setAtStart(element.scrollLeft <= 1);
    };
    measure();
    element.addEventListener('scroll', measure, { passive: true });
    window.addEventListener('resize', measure);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(element);
    if (element.firstElementChild) observer?.observe(element.firstElementChild);
    return () => {
      element.removeEventListener('scroll', measure);
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, []);

  return { ref, overflows, atEnd, atStart };
}
