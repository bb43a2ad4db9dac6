# kexp plot; run `gnuplot test_accuracy_vs_kernel.k.gp` here to redraw test_accuracy_vs_kernel.k.svg
set terminal svg size 1000,882 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_kernel.k.svg'
set title 'test accuracy against k'
set xlabel 'k (kernel.k)'
set ylabel 'test accuracy (dashed: validation accuracy)'
set grid
set format x '%g'
set format y '%g'
set bmargin 11
set label 100 'Each point: the cell with the highest validation_accuracy over solver.lambda.' at screen 0.01, screen 0.1655 left font ',12'
set label 101 'Points: mean over up to 3 runs (the repeats); bars: ± one standard deviation.' at screen 0.01, screen 0.1406 left font ',12'
set label 102 'Drawn over one another, with the same errors: spectrum normalize=true · kernel_ridge_classifier (dual) · min_length=20' at screen 0.01, screen 0.1156 left font ',12'
set label 103 'max_length=20 and spectrum normalize=true · primal_ridge (primal) · min_length=20 max_length=20; spectrum normalize=true ·' at screen 0.01, screen 0.0907 left font ',12'
set label 104 'kernel_ridge_classifier (dual) · min_length=100 max_length=100 and spectrum normalize=true · primal_ridge (primal) ·' at screen 0.01, screen 0.0658 left font ',12'
set label 105 'min_length=100 max_length=100.' at screen 0.01, screen 0.0408 left font ',12'
set label 106 'Dashed: validation_accuracy on the training part, bars ± one standard deviation over the folds.' at screen 0.01, screen 0.0159 left font ',12'
set key above maxcols 1 width 0 font ',12'
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1' 1, '2' 2, '3' 3, '4' 4)
$line0 << EOD
1 0.5833333333333334 0.5282576278604724 0.6384090388061944
2 0.5833333333333334 0.5417000133440107 0.624966653322656
3 0.5666666666666668 0.4902904050840694 0.6430429282492641
4 0.5466666666666667 0.47094788872266313 0.6223854446106704
EOD
$line1 << EOD
1 0.6216474020873078 0.6030594058184363 0.6402353983561794
2 0.6091098392748039 0.5813990069825801 0.6368206715670277
3 0.5999825434232348 0.5805413988405023 0.6194236880059673
4 0.6016159802491302 0.5718603761220455 0.6313715843762149
EOD
$line2 << EOD
1 0.5833333333333334 0.5282576278604724 0.6384090388061944
2 0.5833333333333334 0.5417000133440107 0.624966653322656
3 0.5666666666666668 0.4902904050840694 0.6430429282492641
4 0.5466666666666667 0.47094788872266313 0.6223854446106704
EOD
$line3 << EOD
1 0.6216474020873078 0.6030594058184363 0.6402353983561794
2 0.6091098392748039 0.5813990069825801 0.6368206715670277
3 0.5999825434232348 0.5805413988405023 0.6194236880059673
4 0.6016159802491302 0.5718603761220455 0.6313715843762149
EOD
$line4 << EOD
1 0.7666666666666666 0.6916111316720153 0.841722201661318
2 0.7466666666666667 0.7062521478233929 0.7870811855099406
3 0.7733333333333333 0.6996221853750133 0.8470444812916533
4 0.7333333333333334 0.6431483382768756 0.8235183283897912
EOD
$line5 << EOD
1 0.7591366475891221 0.7311155513473943 0.78715774383085
2 0.7658324916769536 0.7441522274062363 0.7875127559476708
3 0.7441489295377748 0.7281750958484814 0.7601227632270682
4 0.7233381962368609 0.6941846321889913 0.7524917602847305
EOD
$line6 << EOD
1 0.7666666666666666 0.6916111316720153 0.841722201661318
2 0.7466666666666667 0.7062521478233929 0.7870811855099406
3 0.7733333333333333 0.6996221853750133 0.8470444812916533
4 0.7333333333333334 0.6431483382768756 0.8235183283897912
EOD
$line7 << EOD
1 0.7591366475891221 0.7311155513473943 0.78715774383085
2 0.7658324916769536 0.7441522274062363 0.7875127559476708
3 0.7441489295377748 0.7281750958484814 0.7601227632270682
4 0.7233381962368609 0.6941846321889913 0.7524917602847305
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'spectrum normalize=true · kernel_ridge_classifier (dual) · min_length=20 max_length=20', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#0072B2' notitle, \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'spectrum normalize=true · primal_ridge (primal) · min_length=20 max_length=20', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#D55E00' notitle, \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 1 lc rgb '#009E73' title 'spectrum normalize=true · kernel_ridge_classifier (dual) · min_length=100 max_length=100', \
     $line5 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#009E73' notitle, \
     $line6 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'spectrum normalize=true · primal_ridge (primal) · min_length=100 max_length=100', \
     $line7 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#CC79A7' notitle
