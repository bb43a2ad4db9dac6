# kexp plot; run `gnuplot test_rmse_vs_kernel.m.gp` here to redraw test_rmse_vs_kernel.m.svg
set terminal svg size 1000,642 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_rmse_vs_kernel.m.svg'
set title 'test RMSE against m'
set xlabel 'm (kernel.m)'
set ylabel 'test RMSE'
set grid
set format x '%g'
set format y '%g'
set bmargin 5
set label 100 'Points: one run each, so no bars.' at screen 0.01, screen 0.0218 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('250' 250, '1000' 1000)
$line0 << EOD
250 1.854292284237294 1.854292284237294 1.854292284237294
1000 1.8219945334756709 1.8219945334756709 1.8219945334756709
EOD
$line1 << EOD
250 1.4120036151230992 1.4120036151230992 1.4120036151230992
1000 1.304002133556217 1.304002133556217 1.304002133556217
EOD
$line2 << EOD
250 1.3805963488841668 1.3805963488841668 1.3805963488841668
1000 1.1599901163882447 1.1599901163882447 1.1599901163882447
EOD
$line3 << EOD
250 1.2848263935144748 1.2848263935144748 1.2848263935144748
1000 1.0603016295611978 1.0603016295611978 1.0603016295611978
EOD
$line4 << EOD
250 1.268354153051199 1.268354153051199 1.268354153051199
1000 1.0483246104264288 1.0483246104264288 1.0483246104264288
EOD
$line5 << EOD
250 1.2253492819179606 1.2253492819179606 1.2253492819179606
1000 1.020658018689347 1.020658018689347 1.020658018689347
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'nystrom(gaussian) centres=uniform nystrom.map=none · primal_ridge (primal) · n=1250', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'nystrom(gaussian) centres=uniform nystrom.map=none · primal_ridge (primal) · n=5000', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#009E73' title 'nystrom(gaussian) centres=uniform nystrom.map=none · primal_ridge (primal) · n=20000', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'nystrom(gaussian) centres=uniform nystrom.map=none · primal_ridge (primal) · n=50000', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 1 lc rgb '#E69F00' title 'nystrom(gaussian) centres=uniform nystrom.map=none · primal_ridge (primal) · n=125000', \
     $line5 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#56B4E9' title 'nystrom(gaussian) centres=uniform nystrom.map=none · primal_ridge (primal) · n=1250000'
