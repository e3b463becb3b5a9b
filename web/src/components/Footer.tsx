import { Link } from 'react-router';

/** Call to action and copyright shared by the public pages (spec §2). */
export function Footer() {
  return (
    <footer className="footer">
      <section className="footer__cta" aria-labelledby="footer-cta">
        <h2 id="footer-cta">Ready to Get Started?</h2>
        <p>Join developers optimizing their embedded systems with automated memory analysis</p>
        <Link to="/auth" className="button button--primary button--large">
          Start Free Today
        </Link>
      </section>
      <p className="footer__copyright">© 2025 Memtrail. All rights reserved.</p>
    </footer>
  );
}
