import { Link } from 'react-router';
import { Footer } from '../components/Footer.tsx';
import { SUPPORT_EMAIL } from '../lib/product.ts';

const PLANS = [
  {
    name: 'Cloud',
    price: 'Free',
    note: 'Hosted by us',
    features: [
      'Unlimited projects and targets',
      'Time series, commit history and build comparison',
      'Symbol analysis and memory layout',
      'GitHub Action and CLI for any CI system',
      'Pull-request monitoring',
    ],
    cta: { label: 'Start Free Today', to: '/auth' },
  },
  {
    name: 'On-Premises',
    price: 'Contact us',
    note: 'Runs on your infrastructure',
    features: [
      'Everything in Cloud',
      'Your own servers or Kubernetes cluster',
      'Sign-in through your own OIDC provider',
      'Reports never leave your network',
      'Support from the team that builds it',
    ],
    cta: { label: 'Contact sales', href: `mailto:${SUPPORT_EMAIL}?subject=Memtrail%20on-premises` },
  },
];

export function PricingPage() {
  return (
    <div className="doc-page">
      <div className="pricing">
        <header className="pricing__header">
          <p className="eyebrow">Pricing</p>
          <h1>Simple plans for firmware teams</h1>
          <p className="doc__lead">
            Start in the cloud for free, or run Memtrail next to your own CI.
          </p>
        </header>
        <div className="pricing__plans">
          {PLANS.map((plan) => (
            <article key={plan.name} className="plan">
              <h2>{plan.name}</h2>
              <p className="plan__price">{plan.price}</p>
              <p className="plan__note">{plan.note}</p>
              <ul>
                {plan.features.map((feature) => (
                  <li key={feature}>{feature}</li>
                ))}
              </ul>
              {'to' in plan.cta && plan.cta.to ? (
                <Link to={plan.cta.to} className="button button--primary">
                  {plan.cta.label}
                </Link>
              ) : (
                <a href={plan.cta.href} className="button button--ghost">
                  {plan.cta.label}
                </a>
              )}
            </article>
          ))}
        </div>
      </div>
      <Footer />
    </div>
  );
}
