/**
 * The demo shop's CMS pages, one per content route, and their text: one page each, written for
 * its subject (no shared template sentence), with the support address and phone from the one
 * shared constant.
 */
import { SUPPORT_EMAIL, SUPPORT_HOURS, SUPPORT_PHONE } from '../../../shared/config/content'
import { NAMED_CMS_PAGES } from '../../../worker/pages/content/paths'
import { CITIES } from './data'

/**
 * CMS page identifiers for every content route the shop serves: the pages with a named route of
 * their own come from the worker's list (NAMED_CMS_PAGES), so the two cannot drift apart.
 */
export const CMS_PAGE_IDENTIFIERS = [
  'about-us',
  ...NAMED_CMS_PAGES,
  'ode-to-handloom',
  'ode-to-chikankari',
  'ode-to-banaras',
  'shipping-and-returns',
  'contact',
  'privacy-policy',
  'terms-and-conditions',
  'faq',
  'size-guide',
  'home',
  'no-route',
] as const

interface PageText {
  /** The meta description: one sentence on what the page holds. */
  summary: string
  html: string
}

const img = (path: string, alt: string, w = 600, h = 744) =>
  `<img src="/img/${w}/${h}${path}" alt="${alt}" width="${w}" height="${h}" loading="lazy">`

const stockistRows = CITIES.map(
  (c) => `<li><strong>${c.name}</strong>, ${c.street}, ${c.city}. ${c.hours}.</li>`,
).join('')

export const CMS_PAGES: Record<(typeof CMS_PAGE_IDENTIFIERS)[number], PageText> = {
  'about-us': {
    summary: 'Ode Atelier makes handwoven and hand-embroidered clothes with artisans across India.',
    html: `<h2>A studio of Indian hands</h2>
<p>Ode Atelier began in 2012 as a cutting table in a Colaba walk-up, a bolt of Chanderi and a promise: to make clothes you would hand down, with the people whose crafts they carry. Today eight designers and more than four hundred weavers, block printers and embroiderers make our collections, from the pit looms of Varanasi to the chikan workshops of Lucknow.</p>
<p>We pay for every piece before it leaves the loom, at rates the clusters set with us each year, and we name the cluster on every label. Nothing is made on speculation: most pieces are woven or embroidered in runs of twenty or fewer, and many of our kurtas and sherwanis are cut only after you order them.</p>
<h3>What we promise</h3>
<ul><li>Natural fibres first: silk, cotton, linen and wool make up 94% of what we sell.</li><li>Fair, published rates for artisans, and work through the monsoon when the looms slow.</li><li>Alterations free for the first year, and repairs to zari and embroidery for the life of the piece.</li></ul>
${img('/b/home-festive-edit.svg', 'The festive collection on the studio rail', 600, 744)}
<p>Visit us in one of our six stores, or write to ${SUPPORT_EMAIL}: a person from the studio answers every letter.</p>`,
  },
  magazine: {
    summary: 'Stories from the looms, the studio and the people who wear our clothes.',
    html: `<h2>The Ode Journal</h2>
<p>Our journal follows the threads behind each collection: who spun them, who dyed them and what happened on the way to the shop floor.</p>
<h3>Three weeks on a Banarasi pit loom</h3>
<p>A single Kadhua saree takes two weavers twenty-one days. We sat with Abdul and his son in Madanpura as the buttas were lifted, one by one, with a bamboo stick: every motif woven separately, so that the back of the saree is as clean as the front.</p>
<h3>Indigo, slowly</h3>
<p>In Bagru the dyers still ferment their indigo vats for a fortnight. Our block printers explain why a natural blue never looks quite the same twice, and why we think that is the point.</p>
<h3>How to store a silk saree</h3>
<p>Fold it in muslin, never plastic; keep it away from naphthalene; air it on a cloudy day; refold it along new lines every season. Our conservator's five rules keep zari bright for decades.</p>
<p>New stories arrive on the first Friday of each month. Subscribe to our letter at the foot of any page to read them first.</p>`,
  },
  covers: {
    summary: 'Our clothes on the covers of magazines, and the stories behind each shoot.',
    html: `<h2>On the cover</h2>
<p>Some of our favourite pieces have travelled further than we ever did. These are the covers they appeared on, and the small stories behind each shoot.</p>
<ul><li><strong>Sutra, October 2025.</strong> The Noor Kanjeevaram saree in maroon and gold, shot at dawn on the ghats of Maheshwar; the pallu took four people to hold against the wind.</li><li><strong>The Bridal Ledger, Winter 2025.</strong> A velvet lehenga in wine, hand-embroidered in zardozi over eleven weeks by the Lucknow cluster.</li><li><strong>The Dapper Review, March 2025.</strong> Our bandhgala in merino wool, tailored in Jodhpur, worn with nothing but a white tee.</li><li><strong>Weft &amp; Warp, Summer 2024.</strong> A chikankari kurta in ivory mulmul, in the issue on slow fashion.</li></ul>
${img('/b/celeb-covers.svg', 'A cover shoot in the Ode Atelier studio', 533, 800)}
<p>For press images and loans, see our press page.</p>`,
  },
  press: {
    summary: 'Press contacts, recent coverage and how to request images or loans.',
    html: `<h2>Press</h2>
<p>For interviews, images, samples and loans for shoots, write to our press office at ${SUPPORT_EMAIL} with "Press" in the subject line; we answer within two working days and send high-resolution images the same day.</p>
<h3>Recent coverage</h3>
<ul><li>"The label quietly rebuilding India's pit looms", <cite>The Handloom Review</cite>, February 2026.</li><li>"Twenty pieces a run, and every weaver named", <cite>Sutra</cite>, November 2025.</li><li>"Ten Indian labels to watch", <cite>Textile Weekly</cite>, September 2025.</li></ul>
<h3>Fact sheet</h3>
<p>Founded 2012 in Mumbai. Eight designers, six stores, 400+ artisans in eleven clusters. Collections twice a year (Festive in August, Summer in February) and a bridal edit by appointment.</p>`,
  },
  'past-collections': {
    summary: 'Every Ode Atelier collection since 2019, with the crafts at its heart.',
    html: `<h2>Past collections</h2>
<p>We never burn or bury unsold stock: past collections return to our archive, to sale, or to the looms as samples for the next weavers. These are the seasons that shaped us.</p>
<ul><li><strong>Monsoon Ragas, Summer 2025.</strong> Light mulmul and Chanderi in rain-cloud greys and teal, with bandhani from Jamnagar.</li><li><strong>Darbar, Festive 2024.</strong> Sherwanis and lehengas in velvet and brocade, embroidered in zardozi by the Bareilly cluster.</li><li><strong>Kinara, Summer 2024.</strong> Ikat shirts and kurtas from Pochampally, inspired by the fishing boats of the Konkan coast.</li><li><strong>Roshni, Festive 2023.</strong> Our first Kanjeevaram sarees, with korvai borders in gold and temple motifs.</li><li><strong>Mitti, Summer 2019.</strong> Khadi and natural dyes: the collection that made us a label.</li></ul>
${img('/b/home-editors-pick.svg', 'Pieces from past collections in the archive', 600, 744)}`,
  },
  'about-us-author': {
    summary: 'Meera Iyer, creative director of Ode Atelier, on how a collection begins.',
    html: `<h2>Meera Iyer, creative director</h2>
<p>Meera trained as a textile designer in Ahmedabad and spent six years in the handloom clusters of Tamil Nadu before she drew a single garment. She joined Ode Atelier in 2014 and has led its collections since 2018.</p>
<blockquote><p>A collection starts at the loom, not on paper. I ask the weavers what they miss weaving, and we design around that.</p></blockquote>
<p>Every season she spends a month on the road with the designers, choosing yarns, approving strike-offs and sitting with the master craftsmen who will make each piece. Her own wardrobe, she says, is "four sarees, three kurtas and one very old pair of jeans".</p>`,
  },
  stockists: {
    summary: 'Where to find Ode Atelier: our six stores and selected stockists in India and abroad.',
    html: `<h2>Stockists</h2>
<p>Our own stores carry the full collection, bridal appointments and free alterations:</p>
<ul>${stockistRows}</ul>
<h3>Selected stockists</h3>
<ul><li>The Loom Room, Khan Market, New Delhi.</li><li>Kaarigar House, Lower Parel, Mumbai.</li><li>Weft, Marylebone High Street, London (menswear and scarves).</li><li>Sutradhar, Dempsey Hill, Singapore (the bandhgala and ikat shirts).</li></ul>
<p>Want to stock us? Write to ${SUPPORT_EMAIL} with "Wholesale" in the subject line.</p>`,
  },
  'ode-to-handloom': {
    summary: 'Our tribute to India’s handloom weavers and the looms that still clatter in their homes.',
    html: `<h2>Ode to handloom</h2>
<p>India still has more than three million handloom weavers, more than the rest of the world together. In Chanderi, Pochampally, Phulia and Kanchipuram the looms stand in front rooms, and the rhythm of the shuttle is the sound of the street.</p>
<p>A handloom cloth breathes differently from a power-loom one: the weft is beaten in by hand, so the tension varies a little with every pick, and the cloth is softer and more alive. It is also slower: a metre of fine Chanderi is a full day's work.</p>
${img('/p/saree-teal-zari-d.svg', 'A zari border on the loom, close up', 600, 744)}
<p>This season every piece marked "Handloom" comes with the name of the cluster that wove it. Wear it, wash it gently and hand it on.</p>`,
  },
  'ode-to-chikankari': {
    summary: 'Our tribute to the white-on-white embroidery of Lucknow.',
    html: `<h2>Ode to chikankari</h2>
<p>Chikankari began, the story goes, in the Mughal court, and never left Lucknow. It is worked white on white, in thirty-two stitches, on cloth so fine that the shadow of the thread shows through: the tepchi runs, the phanda knots like millet seeds, the jaali opens small windows in the fabric.</p>
<p>A kurta takes one embroiderer three to five weeks. The women of our Lucknow cluster work at home, between school runs and meals, and are paid for each piece the day it is finished.</p>
${img('/p/kurta-ivory-chikankari-d.svg', 'Chikankari shadow work, close up', 600, 744)}
<p>To wash chikankari, soak it in cold water with a little mild soap, never wring it, and dry it in the shade; it only grows softer.</p>`,
  },
  'ode-to-banaras': {
    summary: 'Our tribute to the weavers of Varanasi and the zari that made Banarasi silk famous.',
    html: `<h2>Ode to Banaras</h2>
<p>In the lanes of Madanpura and Sarai Mohana the looms begin before the city wakes. A Banarasi saree is a conversation between two weavers and a jacquard card set punched by a third: hundreds of cards, each lifting the threads for one line of the pattern.</p>
<p>Real zari is silver thread coated in gold, wound around a silk core. It is heavy, it catches the light like nothing else, and it lasts for generations when it is stored well.</p>
${img('/p/saree-maroon-zari-f.svg', 'A Banarasi saree on the dress form', 600, 744)}
<p>Our Banarasi pieces carry a silk mark and a certificate of the zari used. Ask us for the weaver's name: we will gladly tell you.</p>`,
  },
  'shipping-and-returns': {
    summary: 'Delivery times, shipping costs and how to return or exchange a piece.',
    html: `<h2>Shipping and returns</h2>
<h3>Delivery</h3>
<p>Shipping is free within India on orders above ₹2,999 (₹149 below that). Ready-to-ship pieces leave our Mumbai studio within 48 hours and arrive in two to five working days; made-to-order pieces take the time shown on their page. We ship to more than forty countries; duties are charged by the destination on delivery.</p>
<h3>Returns and exchanges</h3>
<p>Unworn pieces with their tags can be returned within 15 days of delivery for a refund or store credit. Made-to-measure, altered and stitched pieces, gift cards and downloads cannot be returned. Request a pick-up from your order page; refunds reach your card, UPI or bank within seven working days of the pick-up.</p>`,
  },
  contact: {
    summary: 'How to reach the studio: e-mail, phone, WhatsApp and our stores.',
    html: `<h2>Talk to us</h2>
<p>Questions about an order, a size, a fabric or a gift? Write to <a href="mailto:${SUPPORT_EMAIL}">${SUPPORT_EMAIL}</a> or call <a href="tel:${SUPPORT_PHONE.replace(/\s+/g, '')}">${SUPPORT_PHONE}</a> (${SUPPORT_HOURS}). We answer e-mails within one working day, usually the same afternoon.</p>
<h3>Visit the studio</h3>
<address>Ode Atelier, 2nd floor, Sunny House, 16 Mandlik Road, Colaba, Mumbai 400001</address>
<p>Bridal and styling appointments can be booked at any of our stores; the store locator lists their hours and phone numbers.</p>
<p>Please mention your order number if you have one: it lets us help you faster.</p>`,
  },
  'privacy-policy': {
    summary: 'What personal data we keep, why, and how to have it deleted.',
    html: `<h2>Privacy policy</h2>
<p>We keep what we need to deliver your order and look after your account: your name, addresses, e-mail, phone and order history. Card details are handled by our payment providers and never reach our servers.</p>
<p>We send newsletters only after you confirm your address, and every letter has a one-click unsubscribe. Analytics are measured without advertising identifiers unless you accept them.</p>
<p>You can download or delete your data at any time by writing to ${SUPPORT_EMAIL}; we act within 30 days.</p>`,
  },
  'terms-and-conditions': {
    summary: 'The terms on which Ode Atelier sells through this website.',
    html: `<h2>Terms and conditions</h2>
<p>These terms apply to every order placed on this website with Ode Atelier Private Limited, Mumbai. Prices in India include GST; prices elsewhere exclude local duties and taxes unless shown otherwise at checkout.</p>
<p>Handmade pieces vary slightly in colour and pattern from their pictures and from each other; these variations are the mark of the hand, not faults. A contract is formed when we confirm your order by e-mail.</p>
<p>Disputes are governed by the laws of India and the courts of Mumbai.</p>`,
  },
  faq: {
    summary: 'Answers to the questions we are asked most often.',
    html: `<h2>Frequently asked questions</h2>
<h3>How do I choose a size?</h3>
<p>Every product page has a size chart with body measurements in inches and centimetres. Between two sizes, choose the larger: our tailors can take a piece in, but not always let it out.</p>
<h3>Will the colour match the picture?</h3>
<p>Natural dyes and handlooms vary from batch to batch, so expect small differences in shade; the fabric detail image shows the texture most faithfully.</p>
<h3>Can I pay cash on delivery?</h3>
<p>Yes, in most Indian PIN codes: enter yours at checkout to see whether it is covered.</p>`,
  },
  'size-guide': {
    summary: 'How to measure yourself and read our size charts.',
    html: `<h2>Size guide</h2>
<p>Measure over light clothing with a soft tape held level and snug but not tight.</p>
<ul><li><strong>Bust or chest:</strong> around the fullest part, under the arms.</li><li><strong>Waist:</strong> around the natural waist, the narrowest part of the torso.</li><li><strong>Hip:</strong> around the fullest part of the hips, feet together.</li><li><strong>Shoulder:</strong> from one shoulder point to the other across the back.</li></ul>
<p>Each product page shows the chart for that garment: a kurta and a sherwani are measured differently.</p>`,
  },
  home: {
    summary: 'Designer Indian clothes, handwoven and hand-embroidered, from Ode Atelier.',
    html: `<h2>Made by hand, made to last</h2>
<p>Sarees from the looms of Varanasi and Kanchipuram, chikankari from Lucknow, ikat from Pochampally: this season's collection is on the rails.</p>`,
  },
  'no-route': {
    summary: 'The page you were looking for is not here.',
    html: `<h2>We could not find that page</h2>
<p>It may have moved or sold out. Try the search above, or start again from <a href="/">the home page</a>.</p>`,
  },
}
